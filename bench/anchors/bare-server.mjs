// The bare Node anchor of `npm run bench` (bench/request-path.ts), run as its own process: node:http and
// nothing else, answering each recorded path with the product's recorded status, headers and bytes.
// Usage: node bench/anchors/bare-server.mjs <answers.json>; prints `listening <port>` once it listens.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** @type {Record<string, {status: number, headers: Record<string, string | string[]>, body: string}>} */
const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const answers = new Map(
  Object.entries(recorded).map(([path, a]) => [path, { ...a, bytes: Buffer.from(a.body, 'base64') }]),
);

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.bytes);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
