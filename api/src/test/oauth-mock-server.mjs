// Runs oauth2-mock-server (ESM-only, which Jest's module system cannot load) in a child process.
// Protocol over the IPC channel: sends { issuer } once listening; on { claims, id } it sets the
// claims added to every token it signs from then on and answers { ack: id }.
import { OAuth2Server } from 'oauth2-mock-server';

const server = new OAuth2Server();
let claims = {};
await server.issuer.keys.generate('RS256');
server.service.on('beforeTokenSigning', (token) => {
  for (const [k, v] of Object.entries(claims)) {
    if (v === null) delete token.payload[k];
    else token.payload[k] = v;
  }
});
await server.start(0, 'localhost');
process.on('message', async (msg) => {
  if (msg.claims) {
    claims = msg.claims;
    process.send({ ack: msg.id });
  } else if (msg.stop) {
    await server.stop();
    process.disconnect();
  }
});
process.send({ issuer: server.issuer.url });
