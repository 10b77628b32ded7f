import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { CONFIG_VARIABLES, ConfigError, loadConfig, loadSecret } from '../core/config.js';

describe('loadConfig', () => {
  it('runs on the embedded defaults with no variable set', () => {
    const c = loadConfig({});
    expect(c).to.deep.include({
      port: 3000,
      baseUrl: 'http://localhost:3000',
      pageDomain: 'localhost:3000',
      storage: 'fs',
      role: 'all',
      mediaUrl: 'http://localhost:3000/media',
      trustProxy: false,
      databaseUrl: undefined,
      passwordCost: 15,
    });
    expect(c.dataDir).to.equal(path.resolve('./data'));
  });

  it('follows PORT into the derived addresses and trims a trailing slash from BASE_URL', () => {
    expect(loadConfig({ PORT: '8080' })).to.deep.include({
      baseUrl: 'http://localhost:8080',
      pageDomain: 'localhost:8080',
    });
    expect(loadConfig({ BASE_URL: 'https://links.example.com/' })).to.deep.include({
      baseUrl: 'https://links.example.com',
      pageScheme: 'https:',
      mediaUrl: 'https://links.example.com/media',
    });
  });

  it('shows the brand on pages always unless BRANDING says never or owner, and names a wrong value', () => {
    expect(loadConfig({}).branding).to.equal('always');
    expect(loadConfig({ BRANDING: 'owner' }).branding).to.equal('owner');
    expect(loadConfig({ BRANDING: 'never' }).branding).to.equal('never');
    expect(() => loadConfig({ BRANDING: 'off' })).to.throw(
      ConfigError,
      'BRANDING: must be always, owner or never (got "off")',
    );
  });

  it('starts a split role (api, router, worker) only with SECRET, BASE_URL and PAGE_DOMAIN, one line for each missing', () => {
    const shared = {
      SECRET: 'a-secret-0123456789-0123456789-0123',
      BASE_URL: 'https://l.example',
      PAGE_DOMAIN: 'p.example',
    };
    for (const ROLE of ['api', 'router', 'worker']) {
      expect(loadConfig({ ROLE, ...shared }).role).to.equal(ROLE);
      expect(() => loadConfig({ ROLE, ...shared, SECRET: '' })).to.throw(
        ConfigError,
        new RegExp(`^SECRET: must be set when ROLE=${ROLE} \\(every process`),
      );
      let message = '';
      try {
        loadConfig({ ROLE });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message.split('\n').map((line) => line.split(':')[0])).to.deep.equal([
        'SECRET',
        'BASE_URL',
        'PAGE_DOMAIN',
      ]);
    }
    expect(loadConfig({ ROLE: 'all' }).role).to.equal('all');
  });

  it('reads IMPORT_BASE_URLS as network=URL pairs', () => {
    const config = loadConfig({ IMPORT_BASE_URLS: 'github=http://gh.local:8080/api/, instagram=https://ig.example' });
    expect(config.importBaseUrls).to.deep.equal({
      github: 'http://gh.local:8080/api',
      instagram: 'https://ig.example',
    });
  });

  it('stops on a bad value with one line that starts with the variable', () => {
    const cases: Record<string, string>[] = [
      { PORT: 'abc' },
      { PORT: '70000' },
      { ROLE: 'boss' },
      { STORAGE: 'ftp' },
      { BASE_URL: 'notaurl' },
      { DATABASE_URL: 'mysql://x' },
      { SECRET: 'short' },
      { TRUST_PROXY: 'maybe' },
      { LOG_LEVEL: 'loud' },
      { PASSWORD_COST: '9' },
      { PASSWORD_COST: '18' },
      { PASSWORD_COST: '15.5' },
      { IMPORT_BASE_URLS: 'github' },
      { IMPORT_BASE_URLS: 'myspace=https://myspace.example.com' },
      { STORAGE: 's3' },
    ];
    for (const env of cases) {
      const [name] = Object.keys(env);
      const expected = env.STORAGE === 's3' ? 'S3_BUCKET' : name;
      let message = '';
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).to.be.instanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message, JSON.stringify(env)).to.match(new RegExp(`^${expected}: `));
      expect(message).to.not.include('\n');
    }
  });

  it('reads OUTBOUND_ALLOW as host:port entries, none by default, and stops on anything else', () => {
    expect(loadConfig({}).outboundAllow).to.deep.equal([]);
    expect(
      loadConfig({ OUTBOUND_ALLOW: 'hooks.internal:8443, 10.0.0.7:80,[fd00::1]:9000' }).outboundAllow,
    ).to.deep.equal(['hooks.internal:8443', '10.0.0.7:80', '[fd00::1]:9000']);
    for (const bad of ['hooks.internal', '10.0.0.7:99999', 'http://x:80', '*:80']) {
      expect(() => loadConfig({ OUTBOUND_ALLOW: bad }), bad).to.throw(ConfigError, /^OUTBOUND_ALLOW: /);
    }
  });

  it('reads DNS_SERVERS as addresses with optional ports, the system resolvers by default, and the domain days', () => {
    expect(loadConfig({}).domains).to.deep.equal({
      dnsServers: [],
      verifyWindowMs: 7 * 86_400_000,
      graceMs: 3 * 86_400_000,
    });
    const config = loadConfig({
      DNS_SERVERS: '1.1.1.1, 10.0.0.2:5353,2606:4700::1111,[2606:4700::1001]:53',
      DOMAIN_VERIFY_DAYS: '14',
      DOMAIN_GRACE_DAYS: '1',
    });
    expect(config.domains).to.deep.equal({
      dnsServers: ['1.1.1.1', '10.0.0.2:5353', '2606:4700::1111', '[2606:4700::1001]:53'],
      verifyWindowMs: 14 * 86_400_000,
      graceMs: 86_400_000,
    });
    for (const bad of ['dns.example.com', '10.0.0.2:99999', '1.1.1.1:x', '[::1']) {
      expect(() => loadConfig({ DNS_SERVERS: bad }), bad).to.throw(ConfigError, /^DNS_SERVERS: /);
    }
    for (const bad of ['0', '-1', '1.5', 'week']) {
      expect(() => loadConfig({ DOMAIN_GRACE_DAYS: bad }), bad).to.throw(ConfigError, /^DOMAIN_GRACE_DAYS: /);
    }
  });

  it('writes mail to files unless SMTP_URL is set, from MAIL_FROM or the service on BASE_URL', () => {
    expect(loadConfig({}, false).mail).to.deep.equal({
      smtpUrl: undefined,
      from: 'linkpage <no-reply@localhost>',
      logLinks: false,
    });
    expect(
      loadConfig({ SMTP_URL: 'smtps://user:pass@mail.example.com:465', MAIL_FROM: 'Links <hi@links.example>' }, false)
        .mail,
    ).to.deep.equal({
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      from: 'Links <hi@links.example>',
      logLinks: false,
    });
    for (const [name, value] of [
      ['SMTP_URL', 'http://mail.example.com'],
      ['SMTP_URL', 'not a url'],
      ['MAIL_FROM', 'no at sign'],
      ['MAIL_FROM', 'Name <a@b.c>\r\nBcc: x@y.z'],
    ]) {
      expect(() => loadConfig({ [name]: value }), value).to.throw(ConfigError, new RegExp(`^${name}: `));
    }
    expect(() => loadConfig({ SMTP_URL: 'ftp://user:secret-pass@mail.example.com' }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.does.not.include('secret-pass');
  });

  it('has no CDN unless CDN names one', () => {
    expect(loadConfig({}).cdn).to.deep.equal({ kind: 'none', varnishUrls: [] });
    expect(
      loadConfig({ CDN: 'varnish', VARNISH_URLS: 'http://10.0.0.5:6081/, http://10.0.0.6:6081' }).cdn,
    ).to.deep.equal({
      kind: 'varnish',
      varnishUrls: ['http://10.0.0.5:6081', 'http://10.0.0.6:6081'],
    });
  });

  it("stops on a CDN without its addresses or credentials, naming the missing variable and never a token's value", () => {
    const cases: [Record<string, string>, string][] = [
      [{ CDN: 'akamai' }, 'CDN'],
      [{ CDN: 'varnish' }, 'VARNISH_URLS'],
      [{ CDN: 'varnish', VARNISH_URLS: 'ftp://10.0.0.5' }, 'VARNISH_URLS'],
      [{ CDN: 'fastly', FASTLY_API_TOKEN: 'tok-secret' }, 'FASTLY_SERVICE_ID'],
      [{ CDN: 'fastly', FASTLY_SERVICE_ID: 'abc' }, 'FASTLY_API_TOKEN'],
      [{ CDN: 'cloudflare', CLOUDFLARE_API_TOKEN: 'tok-secret' }, 'CLOUDFLARE_ZONE_ID'],
      [{ CDN: 'cloudflare', CLOUDFLARE_ZONE_ID: 'abc' }, 'CLOUDFLARE_API_TOKEN'],
      [
        { CDN: 'cloudflare', CLOUDFLARE_ZONE_ID: 'abc', CLOUDFLARE_API_TOKEN: 'x', CLOUDFLARE_API_URL: 'nope' },
        'CLOUDFLARE_API_URL',
      ],
    ];
    for (const [env, variable] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env))
        .to.throw(ConfigError, new RegExp(`^${variable}: `))
        .with.property('message')
        .that.does.not.include('tok-secret');
    }
  });
});

describe('loadSecret', () => {
  it('generates a secret once and keeps it in DATA_DIR', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-secret-'));
    try {
      const config = loadConfig({ DATA_DIR: dir });
      const first = loadSecret(config);
      expect(first).to.have.length.at.least(32);
      expect(loadSecret(config)).to.equal(first);
      expect(loadSecret({ ...config, secret: 'x'.repeat(40) })).to.equal('x'.repeat(40));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ops/deploy/linkpage.env.example', () => {
  /** Read by the runtime or by libraries, not by the configuration: listed for the operator. */
  const NOT_CONFIG = [
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'MALLOC_ARENA_MAX',
    'MALLOC_MMAP_THRESHOLD_',
  ];

  it('lists every variable of the configuration schema, and no other', async () => {
    const example = await readFile(new URL('../ops/deploy/linkpage.env.example', import.meta.url), 'utf8');
    const listed = [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    const config = listed.filter((name) => !NOT_CONFIG.includes(name));
    expect([...new Set(config)].sort()).to.deep.equal([...CONFIG_VARIABLES].sort());
  });
});
