import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './create-cli.js';
import { adminClient, uniqueCollection, vectorDbUri } from './test-support/server.js';

/** `npm run vector-db:create` against the test server. */

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

async function run(args: string[]) {
  const out = sink();
  const err = sink();
  const code = await main(args, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

const collection = uniqueCollection('cli');

afterAll(async () => {
  const admin = adminClient();
  await admin.dropCollection({ collection_name: collection }).catch(() => {});
  await admin.closeConnection();
});

describe('vector-db:create', () => {
  it('creates the extended collection, then leaves it as it is, and refuses another dimension', async () => {
    const args = ['--uri', vectorDbUri(), '--collection-name', collection];
    const created = await run([...args, '--dimension', '16', '--extended']);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(
      /^created collection "cli_.*" \(element_id, embeddings, record_id, text, type, is_extracted, .*entities_relationships\); index IVF_FLAT\/COSINE on embeddings; loaded\n$/,
    );
    const again = await run([...args, '--dimension', '16']);
    expect(again.out).toMatch(/^already there, left as it is:/);
    const other = await run([...args, '--dimension', '32']);
    expect(other.code).toBe(1);
    expect(other.err).toMatch(/does not fit: "embeddings" has dimension 16/);
  });

  it('takes the connection from the environment and explains bad usage', async () => {
    const previous = process.env.VECTOR_DB_COLLECTION_NAME;
    process.env.VECTOR_DB_COLLECTION_NAME = collection;
    try {
      expect((await run(['--uri', vectorDbUri(), '--dimension', '16'])).code).toBe(0);
    } finally {
      if (previous === undefined) delete process.env.VECTOR_DB_COLLECTION_NAME;
      else process.env.VECTOR_DB_COLLECTION_NAME = previous;
    }
    const noDimension = await run(['--uri', vectorDbUri(), '--collection-name', collection]);
    expect(noDimension.code).toBe(2);
    expect(noDimension.err).toMatch(/--dimension must be a positive integer/);
    const unknown = await run(['--nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/Unknown option '--nope'/);
  });
});
