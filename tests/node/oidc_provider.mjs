// A real OpenID provider for tests/python/test_oauth_provider.py and test_oauth_flow.py: npm
// `oidc-provider` (pinned in package.json) on a free loopback port, with resource indicators
// issuing access tokens for one resource (JWT signed ES256, or opaque ones answered by its
// RFC 7662 introspection endpoint), the clients given, and optionally dynamic client
// registration and the authorization-code flow with PKCE (S256).
//
// argv[2] is a JSON object:
//   resource      the MCP server's resource URI (its audience)
//   format        "jwt" or "opaque" (access tokens)
//   clients       pre-registered clients (oidc-provider client metadata)
//   registration  true: dynamic client registration (RFC 7591) open to anyone
//   accounts      user name -> password, for the login step of the authorization code flow
//
// The login and consent step (devInteractions off) is this file's own small interaction
// endpoint: GET /interaction/<uid> answers 200 with the uid and what is asked; POST
// /interaction/<uid> with `login` and `password` (form) signs the user in and grants the
// requested scopes for the resource, then redirects on into the flow. A client (or a test
// driving it) completes it without a browser. Access tokens carry `preferred_username`.
// Prints {"issuer": ...} once listening; stops on SIGTERM.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';

const config = JSON.parse(process.argv[2]);
const { resource } = config;
const accounts = config.accounts || {};
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'op-es256', alg: 'ES256', use: 'sig' };
const SCOPES = 'media:read media:write';

function form(req) {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: config.clients || [],
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    scopes: ['openid', 'offline_access', 'media:read', 'media:write'],
    async findAccount(_ctx, id) {
      if (!(id in accounts)) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, preferred_username: id }) };
    },
    extraTokenClaims: async (_ctx, token) => (token.accountId
      ? { preferred_username: token.accountId } : undefined),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      registration: { enabled: Boolean(config.registration) },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new Error(`unknown resource ${indicator}`);
          return {
            scope: SCOPES,
            audience: resource,
            accessTokenTTL: 300,
            accessTokenFormat: config.format === 'opaque' ? 'opaque' : 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  });
  const callback = provider.callback();
  server.on('request', async (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(req.url);
    if (!match) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (req.method === 'GET') {
        return json(res, 200, {
          uid: details.uid, prompt: details.prompt.name, reasons: details.prompt.reasons, params: details.params,
        });
      }
      const fields = await form(req);
      const login = fields.get('login');
      if (!(login in accounts) || accounts[login] !== fields.get('password')) {
        return json(res, 401, { error: 'wrong user name or password' });
      }
      const grant = new provider.Grant({ accountId: login, clientId: details.params.client_id });
      const scope = String(details.params.scope || SCOPES);
      grant.addOIDCScope(['openid', ...scope.split(' ')].join(' '));
      const asked = details.params.resource || resource;
      for (const indicator of Array.isArray(asked) ? asked : [asked]) {
        grant.addResourceScope(indicator, scope.split(' ').filter((s) => s.startsWith('media:')).join(' '));
      }
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } },
        { mergeWithLastSubmission: false });
    } catch (e) {
      return json(res, 400, { error: String(e && e.message) });
    }
  });
  console.log(JSON.stringify({ issuer }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
