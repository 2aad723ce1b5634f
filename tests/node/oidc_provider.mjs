// A real OpenID provider for tests/python/test_oauth.py: npm `oidc-provider` (pinned in
// package.json) on a free loopback port, with resource indicators issuing JWT access tokens
// (ES256) for the resource given as argv[2], and one pre-registered confidential client allowed
// the client-credentials grant. Prints {"issuer": ...} once listening; stops on SIGTERM.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';

const resource = process.argv[2];
const [clientId, clientSecret] = [process.argv[3], process.argv[4]];
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'op-es256', alg: 'ES256', use: 'sig' };

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [{
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      id_token_signed_response_alg: 'ES256',
      scope: 'media:read media:write',
    }],
    scopes: ['openid', 'media:read', 'media:write'],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new Error(`unknown resource ${indicator}`);
          return {
            scope: 'media:read media:write',
            audience: resource,
            accessTokenTTL: 300,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  });
  server.on('request', provider.callback());
  console.log(JSON.stringify({ issuer }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
