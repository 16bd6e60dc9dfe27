// Builds the site unless dist/ already matches the sources (npm run build).
import { ensureBuilt } from './lib/build.ts';

await ensureBuilt();
