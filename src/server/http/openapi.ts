import type { Hono } from 'hono';
import { type ZodType, z } from 'zod';
import { type Validation, validationOf } from './validate.ts';

// The OpenAPI 3.1 document of the API, read from the Hono app itself: every route it answers, and
// for each the zod schemas its `validate` middlewares check (query, path, JSON or form body),
// turned into JSON Schema by zod. The schemas that validate requests are the document's only
// source, so the two cannot disagree. Answers are the `{ code, message, data }` envelope.

/** One operation: a method and path the app answers, and what it validates. */
export interface ApiOperation {
  method: string;
  /** The path as Hono writes it, e.g. '/web/api/font/:gno'. */
  path: string;
  validations: Validation[];
}

/** Every operation the app answers, in the order the routes were added (middleware for all methods left out). */
export function apiOperations(app: Hono): ApiOperation[] {
  const operations = new Map<string, ApiOperation>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    const key = `${route.method} ${route.path}`;
    const operation = operations.get(key) ?? { method: route.method, path: route.path, validations: [] };
    const validation = validationOf(route.handler);
    if (validation) operation.validations.push(validation);
    operations.set(key, operation);
  }
  return [...operations.values()];
}

/** '/web/api/font/:gno' → '/web/api/font/{gno}'; '/files/:key{.+}' → '/files/{key}'; a trailing '*' → '{path}'. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}').replace(/\/\*$/, '/{path}');
}

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

/**
 * The Chinese names schemas give their fields (`.meta({ label })`) become JSON Schema descriptions,
 * at every level (a field that is itself called `label` is left alone).
 */
function labelsAsDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(labelsAsDescriptions);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, labelsAsDescriptions(child)]));
    } else if (key === 'label' && typeof value === 'string') {
      out['description'] ??= value;
    } else {
      out[key] = labelsAsDescriptions(value);
    }
  }
  return out;
}

function jsonSchemaOf(schema: ZodType): JsonSchema {
  const json = labelsAsDescriptions(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as JsonSchema;
  delete json['$schema'];
  return json;
}

const ENVELOPE = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string', description: "'200' on success, else the HTTP status or a code such as S00106" },
    message: { type: 'string', description: 'A Chinese sentence for the user' },
    data: { description: 'The answer; null on failure' },
  },
};

function operationOf(operation: ApiOperation): Record<string, unknown> {
  const parameters: unknown[] = [];
  let requestBody: unknown;
  for (const { target, schema } of operation.validations) {
    const json = jsonSchemaOf(schema);
    if (target === 'query' || target === 'param') {
      for (const [name, property] of Object.entries(json.properties ?? {})) {
        const { description, ...rest } = property;
        parameters.push({
          name,
          in: target === 'param' ? 'path' : 'query',
          required: target === 'param' || (json.required ?? []).includes(name),
          ...(description ? { description } : {}),
          schema: rest,
        });
      }
    } else if (target === 'json' || target === 'form') {
      const type = target === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
      requestBody = { required: true, content: { [type]: { schema: json } } };
    }
  }
  for (const name of openApiPath(operation.path).match(/\{(\w+)\}/g) ?? []) {
    const bare = name.slice(1, -1);
    if (!parameters.some((parameter) => (parameter as { name: string }).name === bare)) {
      parameters.push({ name: bare, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  return {
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      '200': {
        description: '成功',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
      },
      '400': {
        description: '请求有误（消息说明原因）',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
      },
      '401': { description: '需要登录' },
      '403': { description: '没有权限' },
      '404': { description: '不存在' },
      '429': { description: '太频繁（Retry-After 说明等待秒数）' },
    },
  };
}

/** The OpenAPI 3.1 document of the app. */
export function openApiDocument(
  app: Hono,
  info: { title: string; version: string; description: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of apiOperations(app)) {
    const path = openApiPath(operation.path);
    paths[path] = { ...paths[path], [operation.method.toLowerCase()]: operationOf(operation) };
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: { Envelope: ENVELOPE },
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'alliance-authenticate', description: '登录后得到的 token' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'token' },
      },
    },
    security: [{}, { token: [] }, { cookie: [] }],
  };
}
