import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../storage/database.js';
import { describeKeyStore } from './store-behaviour.js';

describeKeyStore('PGlite (embedded)', async () =>
  openDatabase({ dataDir: await mkdtemp(join(tmpdir(), 'docsvc-keys-')) }),
);
