// The proposal review, in an MCP host that renders MCP Apps: the change in words, the page as
// proposed, and approve or decline, each a call of the server's own tool through the host.
const { App } = McpApps;
const app = new App({ name: 'linkpage proposal review', version: '1.0.0' });
const $ = (id) => document.getElementById(id);
let shown = null;

const BLOCK_WORDS = { heading: 'Heading', text: 'Text', divider: '—', embed: 'Embedded media', image: 'Picture' };

function blockLine(b) {
  const li = document.createElement('li');
  if (b.type === 'link') li.textContent = b.label || b.url;
  else if (b.type === 'heading' || b.type === 'text') {
    li.className = 'text';
    li.textContent = b.text ?? '';
  } else if (b.type === 'socialRow') li.textContent = (b.items ?? []).map((i) => i.platform).join(' · ');
  else li.textContent = b.label || BLOCK_WORDS[b.type] || b.type;
  if (b.hidden) li.textContent += ' (hidden)';
  return li;
}

function render(p) {
  shown = p;
  $('waiting').hidden = true;
  $('review').hidden = false;
  $('summary').textContent = p.summary;
  $('who').textContent = `Proposed by ${p.changedBy} on version ${p.baseVersion}; ${p.status}.`;
  const page = p.page ?? {};
  $('name').textContent = page.displayName ?? '';
  $('bio').textContent = page.bio ?? '';
  $('blocks').replaceChildren(...(page.blocks ?? []).map(blockLine));
  $('decide').hidden = p.status !== 'pending';
}

function say(text, kind) {
  $('status').textContent = text;
  $('status').className = `status ${kind}`;
}

/** The tool's refusal in words: the error object's hint, else its text. */
function refusal(result) {
  const text = result.content?.find((c) => c.type === 'text')?.text ?? '';
  try {
    const error = JSON.parse(text);
    return error.hint ? `${error.hint}${error.detail ? ` ${error.detail}` : ''}` : text;
  } catch {
    return text || 'The server refused.';
  }
}

async function decide(name, args, done) {
  if (!shown) return;
  for (const b of document.querySelectorAll('button')) b.disabled = true;
  say('Sending…', '');
  try {
    const result = await app.callServerTool({ name, arguments: { id: shown.pageId, proposal: shown.id, ...args } });
    if (result.isError) say(refusal(result), 'error');
    else {
      say(done, 'done');
      $('decide').hidden = true;
    }
  } catch (err) {
    say(String(err?.message ?? err), 'error');
  } finally {
    for (const b of document.querySelectorAll('button')) b.disabled = false;
  }
}

app.ontoolresult = ({ structuredContent }) => {
  if (structuredContent && typeof structuredContent.id === 'string') render(structuredContent);
};
$('approve').addEventListener('click', () => decide('approve_proposal', {}, 'Approved and published.'));
$('decline').addEventListener('click', () =>
  decide('decline_proposal', { note: $('note').value.trim() }, 'Declined. The proposer can read your note.'),
);
$('open').addEventListener('click', () => shown && app.openLink({ url: shown.reviewUrl }));
await app.connect();
