/** The page hosts' 404: small, styled, no external requests. */
const BODY = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>No page here</title>
<style>
html{color-scheme:light dark}
body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f5f2;color:#1d1c1a}
main{max-width:28rem;padding:2rem;text-align:center}
h1{font-size:1.5rem;margin:0 0 .5rem}
p{margin:0;color:#5b5954}
@media (prefers-color-scheme:dark){body{background:#151515;color:#eeece8}p{color:#b3b0aa}}
</style>
</head>
<body>
<main>
<h1>There is no page here</h1>
<p>The page may have moved, been unpublished, or never existed. Check the address and try again.</p>
</main>
</body>
</html>
`;

const BYTES = Buffer.from(BODY);

export function notFoundPage(): Buffer {
  return BYTES;
}
