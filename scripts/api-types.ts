// `npm run api:types`: writes the API's types from its OpenAPI document to src/contract/openapi.gen.ts.
import fs from 'node:fs';
import { apiTypes } from './lib/api-types.ts';

process.env['LOG_LEVEL'] ??= 'silent';
fs.writeFileSync('src/contract/openapi.gen.ts', await apiTypes());
console.log('Wrote src/contract/openapi.gen.ts');
// The app's pools and sweepers would keep the process alive.
process.exit(0);
