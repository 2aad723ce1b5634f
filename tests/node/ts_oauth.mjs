// The official TypeScript SDK client's own OAuth flow against the server, for
// tests/python/test_oauth_flow.py: connect without a token, get the 401, and let the SDK's
// `auth()` follow it (protected resource metadata, the provider's metadata, dynamic client
// registration unless a client is given, the authorization request with PKCE S256 and the
// `resource` parameter). The login and consent step a browser would show is completed here
// on oidc_provider.mjs's interaction endpoint (user name and password, form POST, cookies
// kept), the code is handed back to the SDK (`finishAuth`), and a second connection calls a
// tool with the token the SDK obtained.
//
// argv[2] is a JSON object: url (the MCP endpoint), user, password, and optionally client
// ({client_id, client_secret}, pre-registered: no registration). Prints one JSON line: what
// the SDK sent (authorization request parameters, whether it registered) and the tool result.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const args = JSON.parse(process.argv[2]);
const REDIRECT = 'http://127.0.0.1/callback';

class TestProvider {
  constructor(client) {
    this.client = client;
    this.registered = false;
    this.authorizationUrl = undefined;
    this.saved = undefined;
    this.verifier = undefined;
  }
  get redirectUrl() { return REDIRECT; }
  get clientMetadata() {
    return {
      client_name: 'media-mcp test client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() { return this.client; }
  // Called after a registration (RFC 7591's answer has client_id_issued_at), and also to
  // keep a given client bound to its issuer.
  saveClientInformation(info) {
    this.client = info;
    if ('client_id_issued_at' in info) this.registered = true;
  }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; }
  redirectToAuthorization(url) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

// The browser's part: follow redirects by hand with a cookie jar, sign in at the
// interaction endpoint, and stop at the redirect to REDIRECT, returning its code.
async function signIn(start, user, password) {
  const jar = new Map();
  const go = async (url, init = {}) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers || {}), cookie } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i).trim(), pair.slice(i + 1));
    }
    return res;
  };
  let url = new URL(start);
  const steps = [];
  for (let step = 0; step < 10; step += 1) {
    steps.push(url.pathname);
    if (url.href.startsWith(REDIRECT)) {
      const error = url.searchParams.get('error');
      if (error) throw new Error(`authorization refused: ${error} ${url.searchParams.get('error_description')}`);
      return url.searchParams.get('code');
    }
    let res = await go(url);
    if (res.status === 200 && /\/interaction\//.test(url.pathname)) {
      await res.text();
      res = await go(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: user, password }).toString(),
      });
    }
    const location = res.headers.get('location');
    steps.push(String(res.status));
    if (!location) throw new Error(`no redirect from ${url.pathname}: ${res.status} ${await res.text()}`);
    url = new URL(location, url);
  }
  throw new Error(`too many redirects: ${steps.join(' -> ')}`);
}

const provider = new TestProvider(args.client);
const serverUrl = new URL(args.url);
let unauthorized = false;
try {
  await new Client({ name: 'ts-oauth', version: '1' }).connect(
    new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }),
  );
} catch (e) {
  if (!(e instanceof UnauthorizedError)) throw e;
  unauthorized = true;
}
if (!provider.authorizationUrl) throw new Error('the SDK did not start an authorization');
const asked = Object.fromEntries(provider.authorizationUrl.searchParams);
const code = await signIn(provider.authorizationUrl, args.user, args.password);
const transport = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
await transport.finishAuth(code);
const client = new Client({ name: 'ts-oauth', version: '1' });
await client.connect(transport);
const tools = (await client.listTools()).tools.map((t) => t.name);
const result = await client.callTool({ name: 'read_search', arguments: { query: 'matrix' } });
await client.close();
console.log(JSON.stringify({
  unauthorized,
  registered: provider.registered,
  client_id: provider.client.client_id,
  asked,
  token_type: provider.saved.token_type,
  tools,
  result,
}));
