/** The view pixel's load for `npm run bench -- pixel`: varied visitors, as autocannon sends them. */
import autocannon from 'autocannon';

/** Varied visitors for the view pixel: addresses of several countries, browsers, referrers, campaigns. */
function pixelRequests() {
  const addresses = [
    '133.11.0.1',
    '81.2.69.142',
    '8.8.8.8',
    '193.0.6.139',
    '200.160.2.3',
    '1.1.1.1',
    '41.0.0.1',
    '2001:67c:2e8::1',
  ];
  const agents = [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:131.0) Gecko/20100101 Firefox/131.0',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 340.0.0.22.109',
  ];
  const referers = [
    'https://l.instagram.com/',
    'https://t.co/abc',
    'http://bench.pages.test/?utm_source=mail&utm_campaign=launch',
    '',
  ];
  return Array.from({ length: 64 }, (_, i) => ({
    method: 'GET' as const,
    path: i % 5 === 0 ? '/_/v?utm_source=qr' : '/_/v',
    headers: {
      host: 'bench.pages.test',
      'x-forwarded-for': addresses[i % addresses.length],
      'user-agent': agents[i % agents.length],
      ...(referers[i % referers.length] ? { referer: referers[i % referers.length] } : {}),
    },
  }));
}

export async function pixelLoad(port: number, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 50,
    duration: seconds,
    requests: pixelRequests(),
  });
  if (result['2xx'] !== result.requests.total) throw new Error(`unexpected answers: ${result.non2xx} not 2xx`);
  return result.requests.average;
}
