// Passkeys in the dashboard: adding one (account screen), signing in with one (log-in form) and
// proving with one (before an irreversible action, or to turn the authenticator app off).
// Each form works by posting the browser's WebAuthn answer in its hidden fields; this script
// asks the server for a challenge, lets the browser answer it, and sends the form.
const { startRegistration, startAuthentication, browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } =
  SimpleWebAuthnBrowser;
const csrf = document.querySelector('meta[name="csrf-token"]').content;

async function challenge(url) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error?.hint ?? 'The passkey request failed. Reload the page and try again.');
  return body;
}

function say(form, text) {
  const out = form.querySelector('[data-passkey-status]');
  out.textContent = text;
  out.hidden = false;
}

/** A WebAuthn error in words: a cancelled prompt is not an error worth more than a line. */
function reason(err) {
  if (err?.name === 'NotAllowedError') return 'The passkey prompt was closed or timed out. Try again.';
  if (err?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds a passkey here.';
  return err?.message || 'The passkey did not work. Try again.';
}

function send(form, challengeId, response) {
  form.elements.challengeId.value = challengeId;
  form.elements.response.value = JSON.stringify(response);
  form.submit();
}

const add = document.querySelector('form[data-passkey-add]');
if (add) {
  if (!browserSupportsWebAuthn()) {
    say(add, 'This browser cannot make passkeys.');
    add.querySelector('button').disabled = true;
  }
  add.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!add.reportValidity()) return;
    try {
      const { challengeId, options } = await challenge('/dashboard/passkeys/options');
      send(add, challengeId, await startRegistration({ optionsJSON: options }));
    } catch (err) {
      say(add, reason(err));
    }
  });
}

const login = document.querySelector('form[data-passkey-login]');
if (login) {
  let chosen = false;
  login.hidden = !browserSupportsWebAuthn();
  login.addEventListener('submit', async (event) => {
    event.preventDefault();
    chosen = true;
    try {
      const { challengeId, options } = await challenge(login.dataset.passkeyLogin);
      send(login, challengeId, await startAuthentication({ optionsJSON: options }));
    } catch (err) {
      say(login, reason(err));
    }
  });
  // Conditional UI: the browser offers its passkeys in the e-mail field's suggestions; not on
  // a form showing an error, so that a refused passkey is not offered again and again.
  (async () => {
    if (login.dataset.passkeyAutofill === undefined || !(await browserSupportsWebAuthnAutofill())) return;
    const { challengeId, options } = await challenge(login.dataset.passkeyLogin);
    if (chosen) return;
    send(login, challengeId, await startAuthentication({ optionsJSON: options, useBrowserAutofill: true }));
  })().catch(() => {
    // Cancelled by the button's own request, or the browser declined: the button still works.
  });
}

// A proof with a passkey: the form's own fields go as they are, with the passkey's answer.
for (const proof of document.querySelectorAll('form[data-passkey-proof]')) {
  proof.hidden = !browserSupportsWebAuthn();
  proof.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const { challengeId, options } = await challenge(proof.dataset.passkeyProof);
      const response = await startAuthentication({ optionsJSON: options });
      proof.elements.proofChallengeId.value = challengeId;
      proof.elements.proofResponse.value = JSON.stringify(response);
      proof.submit();
    } catch (err) {
      say(proof, reason(err));
    }
  });
}

// Sign-up with a passkey, with the e-mail typed in the sign-up form: the challenge is asked for
// that e-mail (and bound to it). Shown only where passkeys work; without script it stays hidden.
const signup = document.querySelector('form[data-passkey-signup]');
if (signup && browserSupportsWebAuthn()) {
  const email = document.getElementById('email');
  signup.hidden = false;
  signup.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!email.reportValidity()) return;
    signup.elements.email.value = email.value.trim();
    try {
      const res = await fetch(signup.dataset.passkeySignup, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, email: signup.elements.email.value }),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error?.hint ?? body.error?.message ?? 'The passkey request failed. Try again.');
      send(signup, body.challengeId, await startRegistration({ optionsJSON: body.options }));
    } catch (err) {
      say(signup, reason(err));
    }
  });
}
