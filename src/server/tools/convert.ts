import { z } from 'zod';
import type { JobView } from '../../lib/tools-types.ts';
import { TOOL_TASKS } from '../db/schema/index.ts';
import { conversionProblem, TARGET_FORMATS, type TargetFormat } from '../engine/convert.ts';
import { badRequest } from '../http/envelope.ts';
import type { ToolClient } from './clients.ts';
import { enqueueJob, type JobKind } from './jobs.ts';
import { inTurn, refuseBusyClient } from './limits.ts';
import { MAX_DECODED_FONT_BYTES, toolsPool } from './runtime.ts';
import { resolveSource, sourceSchema } from './sources.ts';

/** The body of POST /tools/api/convert. */
export const convertRequest = z.object({
  source: sourceSchema,
  formats: z
    .array(z.enum(TARGET_FORMATS).meta({ label: '目标格式' }))
    .min(1, '请至少选择一种目标格式')
    .max(TARGET_FORMATS.length)
    .meta({ label: '目标格式' }),
  faceIndex: z.number().int().min(0).max(255).optional().meta({ label: '字体序号' }),
});

/**
 * Starts converting a font into the chosen formats. Targets that would need the outlines
 * redrawn (TTF from CFF, OTF from TrueType, EOT from CFF) are refused here, before any work.
 */
export function startConversion(request: z.infer<typeof convertRequest>, client: ToolClient): Promise<JobView> {
  return inTurn(client, async () => {
    await refuseBusyClient(client);
    const source = await resolveSource(request.source, request.faceIndex ?? 0);
    const targets = [...new Set(request.formats)];
    for (const target of targets) {
      const problem = conversionProblem(source.outline, target);
      if (problem) throw badRequest(problem);
    }
    const params: ConvertParams = { key: source.key, faceIndex: request.faceIndex ?? 0, targets };
    return enqueueJob(convertJob, source.stem, params, client);
  });
}

/** What a queued conversion needs: the font's storage key, which face, which formats. */
interface ConvertParams {
  key: string;
  faceIndex: number;
  targets: TargetFormat[];
}

/** Converting a font (task 1), run by a job runner on any node. */
export const convertJob: JobKind<ConvertParams> = {
  name: 'convert',
  task: TOOL_TASKS.convert,
  run: (params, { outPrefix, progress, client, lane }) =>
    toolsPool().run(
      { kind: 'convert', ...params, outPrefix, maxSfntBytes: MAX_DECODED_FONT_BYTES },
      { lane, onProgress: progress, client },
    ),
};
