# Varnish 7 in front of the page hosts <name>.<PAGE_DOMAIN> of linkpage.
#
# Needs the xkey module from varnish-modules (Debian: apt-get install varnish varnish-modules).
# Run the service with CDN=varnish and VARNISH_URLS listing every Varnish: each publish then
# purges the page's key (page-<name>), and a template republish its template's key
# (template-<id>), with `PURGE /` and an `xkey-purge: <keys>` header.
#
# What it does:
#   - caches a page's HTML and Markdown (/, /index.html, /page.md, /?format=md), its icons,
#     link-preview picture (/og/<hash>.png), llms.txt, robots.txt and the template fonts
#     (/_/fonts/, kept a year as their Cache-Control says) by host and path, and by Accept as the router's `Vary: Accept`
#     asks, with the browser's Accept reduced to "text/markdown" or "text/html" (by its
#     q-values, as the router weighs them) and every
#     query parameter but format=md dropped (utm_* links share one copy);
#   - keeps one copy per content coding the router stores (brotli, gzip, none), with the
#     browser's Accept-Encoding reduced to "br", "gzip" or "identity" (by its q-values, brotli
#     among codings weighed alike, a coding given q=0 never chosen), so every browser shares one
#     of three copies;
#   - keeps a page as long as the router's Surrogate-Control says (a day), until a purge;
#   - passes short paths, the view pixel and tap pings to a router every time (they count);
#   - asks again, up to three times, when a router fails a GET or HEAD (refuses, times out or
#     answers 5xx, or has not begun to answer within 5 s, as a router starting again does):
#     the next router after the one that failed while one is not marked sick by the health
#     probe, else the same one again, so a visitor does not see the failure of a router, nor
#     one or two of the last live one's;
#   - serves the last good copy while every router is down or failing (refuses, or answers 5xx
#     as a router does while storage is away), never a purged one;
#   - answers page hosts and custom domains (any other public name, which Caddy passes on after
#     getting its certificate: ops/deploy/caddy/Caddyfile) alike: a custom domain's page carries the
#     same key page-<name> as its page host, so the purge of an edit drops both copies; the
#     router answers 404 (never kept) for a name no page serves on;
#   - answers 404 for the service's own names: send the apex (API, dashboard) and the media
#     host straight to the API processes.
#
# Edit the four parts between BEGIN and END markers: the routers, the purgers, the page domain,
# the service's own hosts.

vcl 4.1;

import directors;
import std;
import xkey;

probe router_health {
  # The apex's /healthz (the probe's Host is the backend's address, which is not a page host).
  .url = "/healthz";
  .timeout = 1s;
  .interval = 2s;
  .window = 3;
  .threshold = 2;
  # Healthy from the start (Varnish's default, threshold - 1, starts each router sick until a
  # probe answers): a Varnish started or restarted would otherwise answer 503 to every visitor
  # until its first probe came back, as long as 1 s on a busy machine. A router that is down is
  # refused and asked of the other meanwhile (below), and two failed probes mark it sick.
  .initial = 2;
}

# BEGIN backends: every ROLE=router process, added to the director below. linkpage-router.service
# listens on 3001; on one machine keep router1 alone, at 127.0.0.1. A second router on the same
# machine needs a port of its own, never 3000 or 3002: the API and the worker listen there, pass
# the health probe and answer every page 404. test/deploy/ports.test.ts checks these ports.
backend router1 { .host = "10.0.0.31"; .port = "3001"; .probe = router_health; }
backend router2 { .host = "10.0.0.32"; .port = "3001"; .probe = router_health; }

sub vcl_init {
  new routers = directors.shard();
  routers.add_backend(router1);
  routers.add_backend(router2);
  routers.reconfigure();
}
# END backends

# BEGIN purgers: the addresses of the API and worker processes, which send the purges.
acl purgers {
  "127.0.0.1";
  "::1";
}
# END purgers

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(403, "Forbidden"));
    }
    if (!req.http.xkey-purge) {
      return (synth(400, "Name the keys in an xkey-purge header"));
    }
    set req.http.x-purged = xkey.purge(req.http.xkey-purge);
    return (synth(200, "Purged " + req.http.x-purged));
  }

  # BEGIN page domain: <name>.<PAGE_DOMAIN>, as a regular expression (a port is allowed).
  if (req.http.host !~ "(?i)^[a-z0-9-]+\.pages\.example(:[0-9]+)?$") {
  # END page domain
    # Not a page host: a custom domain (Caddy passes them, ops/deploy/caddy/Caddyfile), unless it is
    # one of the service's own names, which never come here.
    # BEGIN own hosts: the apex, PAGE_DOMAIN itself, the media host (a port is allowed).
    if (req.http.host ~ "(?i)^(example\.com|www\.example\.com|pages\.example|media\.example\.com)\.?(:[0-9]+)?$") {
    # END own hosts
      return (synth(404, "Not a page host"));
    }
    # A public name of two labels or more (the router answers 404 for a name no page serves on,
    # never kept here); no Host, an IP literal or anything else is not a page host.
    if (req.http.host !~ "(?i)^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]\.?(:[0-9]+)?$") {
      return (synth(404, "Not a page host"));
    }
    # One copy per name: "Links.Example.com." and "links.example.com" share it.
    set req.http.host = regsub(req.http.host, "\.(:[0-9]+)?$", "\1");
  }
  set req.http.host = std.tolower(req.http.host);
  set req.backend_hint = routers.backend(resolve=LAZY);
  # x-stale is ours (set in vcl_synth for the restart below), never a visitor's.
  if (req.restarts == 0) {
    unset req.http.x-stale;
  }
  # Stale copies only while the routers are down or failing: a healthy router is asked at once,
  # and when it fails (503, refused) the request comes back here with x-stale for the last copy.
  if (req.http.x-stale) {
    set req.grace = 24h;
  } elsif (std.healthy(req.backend_hint)) {
    set req.grace = 10s;
  }

  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  set req.http.x-path = regsub(req.url, "\?.*$", "");
  if (req.http.x-path !~ "^/(index\.html|page\.md|robots\.txt|llms\.txt|favicon\.(ico|png)|apple-touch-icon(-precomposed)?\.png|og/[0-9a-f]{16}\.png|_/fonts/[a-z0-9-]+\.woff2)?$") {
    # Short paths, the view pixel, anything else: the router answers (and counts) each one.
    unset req.http.x-path;
    return (pass);
  }
  if (req.url ~ "[?&]format=md(&|$)") {
    set req.url = req.http.x-path + "?format=md";
  } else {
    set req.url = req.http.x-path;
  }
  unset req.http.x-path;
  # The router's `Vary: Accept`, reduced to the two answers it has, by the q-values as the router
  # weighs them (negotiator): each type's q (its own, else text/*'s, else */*'s, else 0);
  # Markdown when it weighs more, or as much and is named, before text/html if both are.
  if (req.http.accept ~ "(?i)(^|,)\s*text/markdown\s*(;|,|$)") {
    if (req.http.accept ~ "(?i)(^|,)\s*text/markdown\s*;[^,]*\bq=") {
      set req.http.x-q-md = regsub(req.http.accept, "(?i)^(.*,)?\s*text/markdown\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-md = "1";
    }
  } elsif (req.http.accept ~ "(?i)(^|,)\s*text/\*\s*(;|,|$)") {
    if (req.http.accept ~ "(?i)(^|,)\s*text/\*\s*;[^,]*\bq=") {
      set req.http.x-q-md = regsub(req.http.accept, "(?i)^(.*,)?\s*text/\*\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-md = "1";
    }
  } elsif (req.http.accept ~ "(?i)(^|,)\s*\*/\*\s*(;|,|$)") {
    if (req.http.accept ~ "(?i)(^|,)\s*\*/\*\s*;[^,]*\bq=") {
      set req.http.x-q-md = regsub(req.http.accept, "(?i)^(.*,)?\s*\*/\*\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-md = "1";
    }
  } else {
    set req.http.x-q-md = "0";
  }
  if (req.http.accept ~ "(?i)(^|,)\s*text/html\s*(;|,|$)") {
    if (req.http.accept ~ "(?i)(^|,)\s*text/html\s*;[^,]*\bq=") {
      set req.http.x-q-html = regsub(req.http.accept, "(?i)^(.*,)?\s*text/html\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-html = "1";
    }
  } elsif (req.http.accept ~ "(?i)(^|,)\s*text/\*\s*(;|,|$)") {
    if (req.http.accept ~ "(?i)(^|,)\s*text/\*\s*;[^,]*\bq=") {
      set req.http.x-q-html = regsub(req.http.accept, "(?i)^(.*,)?\s*text/\*\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-html = "1";
    }
  } elsif (req.http.accept ~ "(?i)(^|,)\s*\*/\*\s*(;|,|$)") {
    if (req.http.accept ~ "(?i)(^|,)\s*\*/\*\s*;[^,]*\bq=") {
      set req.http.x-q-html = regsub(req.http.accept, "(?i)^(.*,)?\s*\*/\*\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-html = "1";
    }
  } else {
    set req.http.x-q-html = "0";
  }
  if (std.real(req.http.x-q-md, 0) > 0 && (std.real(req.http.x-q-md, 0) > std.real(req.http.x-q-html, 0) ||
      (std.real(req.http.x-q-md, 0) == std.real(req.http.x-q-html, 0) && req.http.accept ~ "(?i)(^|,)\s*text/markdown\s*(;|,|$)" &&
       req.http.accept !~ "(?i)(^|,)\s*text/html\s*(;[^,]*)?,(.*,)?\s*text/markdown\s*(;|,|$)"))) {
    set req.http.accept = "text/markdown";
  } else {
    set req.http.accept = "text/html";
  }
  unset req.http.x-q-md;
  unset req.http.x-q-html;
  # The router's `Vary: Accept-Encoding`, reduced to the three copies it has, by q-values:
  # brotli when it weighs at least as much as gzip, else gzip, else none (a coding given q=0 is
  # never chosen). Varnish rewrites Accept-Encoding itself after this (to gzip or nothing), so
  # the choice travels in x-encoding.
  if (req.http.accept-encoding ~ "(?i)(^|,)\s*br\s*(;|,|$)") {
    if (req.http.accept-encoding ~ "(?i)(^|,)\s*br\s*;[^,]*\bq=") {
      set req.http.x-q-br = regsub(req.http.accept-encoding, "(?i)^(.*,)?\s*br\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-br = "1";
    }
  } elsif (req.http.accept-encoding ~ "(?i)(^|,)\s*\*\s*(;|,|$)") {
    if (req.http.accept-encoding ~ "(?i)(^|,)\s*\*\s*;[^,]*\bq=") {
      set req.http.x-q-br = regsub(req.http.accept-encoding, "(?i)^(.*,)?\s*\*\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-br = "1";
    }
  } else {
    set req.http.x-q-br = "0";
  }
  if (req.http.accept-encoding ~ "(?i)(^|,)\s*(x-)?gzip\s*(;|,|$)") {
    if (req.http.accept-encoding ~ "(?i)(^|,)\s*(x-)?gzip\s*;[^,]*\bq=") {
      set req.http.x-q-gzip = regsub(req.http.accept-encoding, "(?i)^(.*,)?\s*(x-)?gzip\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-gzip = "1";
    }
  } elsif (req.http.accept-encoding ~ "(?i)(^|,)\s*\*\s*(;|,|$)") {
    if (req.http.accept-encoding ~ "(?i)(^|,)\s*\*\s*;[^,]*\bq=") {
      set req.http.x-q-gzip = regsub(req.http.accept-encoding, "(?i)^(.*,)?\s*\*\s*;[^,]*\bq=([0-9.]*).*$", "\2");
    } else {
      set req.http.x-q-gzip = "1";
    }
  } else {
    set req.http.x-q-gzip = "0";
  }
  if (std.real(req.http.x-q-br, 0) > 0 && std.real(req.http.x-q-br, 0) >= std.real(req.http.x-q-gzip, 0)) {
    set req.http.x-encoding = "br";
  } elsif (std.real(req.http.x-q-gzip, 0) > 0) {
    set req.http.x-encoding = "gzip";
  } else {
    set req.http.x-encoding = "identity";
  }
  unset req.http.x-q-br;
  unset req.http.x-q-gzip;
  set req.http.accept-encoding = req.http.x-encoding;
  # Pages are the same for everyone: no cookie or credential makes a copy of its own.
  unset req.http.cookie;
  unset req.http.authorization;
  return (hash);
}

sub vcl_hash {
  # Then Varnish's own hash of host and URL.
  if (req.http.x-encoding) {
    hash_data(req.http.x-encoding);
  }
}

sub vcl_pass {
  set req.http.x-cache = "PASS";
}

sub vcl_backend_fetch {
  # Each fetch picks a router by its first transaction id (spread like round robin): the first
  # router in that key's order that the probe has not marked sick. A retry (below: a GET or HEAD
  # a router refused, dropped, timed out or answered 5xx) asks the same, unless that router
  # failed the last try: then the next router in the key's order not marked sick (alt=1),
  # which is the killed one while the probe has not yet marked it; when every other router is
  # marked sick, the one that failed again. So while a killed router is not yet marked sick
  # the live one gets every other try, and once it is, every try.
  # Never alt=2 or more with two routers (Varnish limits it to 1, with an Error line), and never
  # alt=1 alone: with the other router marked sick, Varnish 7.1 returns no backend for it (not
  # the healthy one skipped, as its documentation says), a try lost as "No backend" (CI's
  # router-kill test: a visitor's 503 after the live router failed two of four tries, the other
  # two never sent).
  if (bereq.retries == 0) {
    set bereq.http.x-router-key = bereq.xid;
    unset bereq.http.x-router-failed;
  }
  set bereq.backend = routers.backend(by=KEY, key=routers.key(bereq.http.x-router-key));
  if (bereq.retries > 0) {
    set bereq.http.x-router = bereq.backend;
    if (bereq.http.x-router == bereq.http.x-router-failed) {
      set bereq.backend = routers.backend(by=KEY, key=routers.key(bereq.http.x-router-key), alt=1);
      if (!bereq.backend) {
        set bereq.backend = routers.backend(by=KEY, key=routers.key(bereq.http.x-router-key));
      }
    }
    unset bereq.http.x-router;
  }
  # A router starting again passes the probe (its /healthz answers at once) while it holds page
  # requests until it is ready, seconds on a loaded machine: after 5 s, ask the other one.
  set bereq.first_byte_timeout = 5s;
  unset bereq.http.x-cache;
  # The router is asked for the copy this request hashed to (Varnish would ask for gzip).
  if (bereq.http.x-encoding) {
    set bereq.http.accept-encoding = bereq.http.x-encoding;
    unset bereq.http.x-encoding;
  }
}

sub vcl_backend_response {
  # The router's keys, under the name xkey indexes.
  if (beresp.http.surrogate-key) {
    set beresp.http.xkey = beresp.http.surrogate-key;
  }
  if (beresp.status >= 500 && bereq.retries < 3 && (bereq.method == "GET" || bereq.method == "HEAD")) {
    # Another router may answer: the visitor never sees one router's failure. The retry takes
    # another router than this one while one is not marked sick (vcl_backend_fetch).
    set bereq.http.x-router-failed = bereq.backend;
    return (retry);
  }
  if (beresp.status >= 500) {
    # Keep serving the last good copy rather than caching the failure: a cached request's fetch
    # is given up, and vcl_synth asks again for a stale copy.
    if (bereq.is_bgfetch || !bereq.uncacheable) {
      return (abandon);
    }
    set beresp.ttl = 0s;
    set beresp.uncacheable = true;
    return (deliver);
  }
  if (beresp.status != 200) {
    # A missing page may be created at any moment: never kept.
    set beresp.ttl = 0s;
    set beresp.uncacheable = true;
    return (deliver);
  }
  if (beresp.http.surrogate-control ~ "max-age=[0-9]+") {
    set beresp.ttl = std.duration(regsub(beresp.http.surrogate-control, "^.*max-age=([0-9]+).*$", "\1") + "s", 0s);
    set beresp.grace = 24h;
    unset beresp.http.surrogate-control;
    return (deliver);
  }
  # Without Surrogate-Control (robots.txt), Varnish's own rules read Cache-Control.
}

sub vcl_backend_error {
  # A router that refused or timed out, before the probe has marked it sick: ask again, up to
  # three times (a router killed and one starting again, or failing once, can fail the same
  # request in turn).
  if (bereq.retries < 3 && (bereq.method == "GET" || bereq.method == "HEAD")) {
    set bereq.http.x-router-failed = bereq.backend;
    return (retry);
  }
  # Then a cached request's fetch is given up, for vcl_synth to look for a stale copy.
  if (bereq.is_bgfetch || !bereq.uncacheable) {
    return (abandon);
  }
}

sub vcl_deliver {
  if (!req.http.x-cache) {
    if (obj.hits > 0) {
      set req.http.x-cache = "HIT";
    } else {
      set req.http.x-cache = "MISS";
    }
  }
  set resp.http.x-cache = req.http.x-cache;
  unset resp.http.xkey;
  unset resp.http.surrogate-key;
  unset resp.http.surrogate-control;
  unset resp.http.via;
  unset resp.http.x-varnish;
}

sub vcl_synth {
  # A fetch given up (every router failed): once more with the last copy kept (grace), if any.
  if (resp.status == 503 && req.restarts == 0 && (req.method == "GET" || req.method == "HEAD")) {
    set req.http.x-stale = "1";
    return (restart);
  }
  if (resp.status == 503) {
    set resp.http.retry-after = "5";
  }
  set resp.http.content-type = "text/plain; charset=utf-8";
  set resp.http.cache-control = "no-store";
  set resp.body = resp.reason + {"
"};
  return (deliver);
}
