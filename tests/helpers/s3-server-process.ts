// The child process of tests/helpers/s3-server.ts: s3rver on a free port, which it prints as JSON.
// s3rver makes its listing continuation tokens with DES, which Node's OpenSSL 3 only offers behind
// --openssl-legacy-provider; a process of its own keeps that flag away from the code under test.
import S3rver from 's3rver';

const [directory = '', bucket = ''] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
