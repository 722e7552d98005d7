// The ceiling for `npm run bench:api`: a Fastify route answering a fixed JSON body (the public list's own bytes),
// with no database, no validation and no serialization: what this machine's Node + Fastify can do at best.
import fs from 'node:fs';
import Fastify from 'fastify';

const [bodyFile, port] = [process.argv[2], Number(process.argv[3])];
const body = fs.readFileSync(bodyFile, 'utf8');
const app = Fastify({ logger: false });
app.get('/bare', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
app.listen({ port, host: '127.0.0.1' }).then(
  () => console.log('listening'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
