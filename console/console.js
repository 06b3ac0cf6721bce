/*
 * The gateway's console page (served at / when CONSOLE is on). Plain browser JavaScript, no
 * framework and no build step: everything goes through the public REST API under /v4 with the
 * token the person signs in with. The token is kept in sessionStorage (this tab only), sent only in
 * the Authorization header, never put in a URL, never printed. Whatever the gateway answers is
 * shown with textContent, never parsed as HTML.
 */
(function () {
  'use strict';

  var TOKEN_KEY = 'gateway-console-token';
  var byId = function (id) { return document.getElementById(id); };
  var show = function (el, on) { el.hidden = !on; };

  function storedToken() {
    try { return sessionStorage.getItem(TOKEN_KEY); } catch (e) { return null; }
  }
  function storeToken(token) {
    try {
      if (token === null) sessionStorage.removeItem(TOKEN_KEY);
      else sessionStorage.setItem(TOKEN_KEY, token);
    } catch (e) { /* storage refused (private mode): the session lasts until the page is left */ }
  }

  var token = null;

  /** The gateway's envelope error as one line: its message, its catalogue id and status. */
  function describeError(error, status) {
    var parts = [error && error.message ? error.message : 'HTTP ' + status];
    if (error && error.id) parts.push('(' + error.id + ', ' + (error.status || status) + ')');
    return parts.join(' ');
  }

  /** One call to the REST API: {ok: true, result} or {ok: false, status, message}. */
  function api(method, path, body) {
    var headers = { Accept: 'application/json' };
    if (token !== null) headers.Authorization = 'Bearer ' + token;
    var init = { method: method, headers: headers, cache: 'no-store', credentials: 'omit' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = body;
    }
    return fetch(path, init).then(
      function (res) {
        return res.text().then(function (text) {
          var envelope;
          try { envelope = JSON.parse(text); } catch (e) {
            return { ok: false, status: res.status, message: 'HTTP ' + res.status + ': the answer is not JSON' };
          }
          if (envelope === null || typeof envelope !== 'object') return { ok: false, status: res.status, message: 'HTTP ' + res.status + ': an unexpected answer' };
          if (envelope.error) return { ok: false, status: res.status, message: describeError(envelope.error, res.status) };
          if (!res.ok) return { ok: false, status: res.status, message: 'HTTP ' + res.status };
          return { ok: true, result: envelope.result };
        });
      },
      function (err) {
        return { ok: false, status: 0, message: 'The gateway did not answer: ' + (err && err.message ? err.message : String(err)) };
      }
    );
  }

  function setError(el, message) {
    el.textContent = message || '';
    show(el, Boolean(message));
  }

  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  // --- signing in and out ---------------------------------------------------------------------

  function signedIn(me) {
    var source = (me && me._source) || {};
    var roles = Array.isArray(source.roles) && source.roles.length > 0 ? source.roles.join(', ') : 'no role';
    var text = 'Signed in as ' + (me && me._id ? me._id : '?');
    if (source.tenantId) text += ' of tenant ' + source.tenantId;
    text += ' (' + roles + ')';
    if (source.apiKeyId) text += ', with API key ' + source.apiKeyId;
    byId('who-text').textContent = text;
    show(byId('who'), true);
    show(byId('sign-in'), false);
    show(byId('search'), true);
    show(byId('keys'), true);
    loadKeys();
  }

  function signOut(reason) {
    token = null;
    storeToken(null);
    hideNewKey();
    show(byId('who'), false);
    show(byId('search'), false);
    show(byId('keys'), false);
    show(byId('sign-in'), true);
    byId('hits').querySelector('tbody').textContent = '';
    byId('key-list').querySelector('tbody').textContent = '';
    byId('keys-total').textContent = '';
    byId('keys').removeAttribute('aria-busy');
    show(byId('hits'), false);
    show(byId('search-total'), false);
    setError(byId('search-error'), '');
    setError(byId('keys-error'), '');
    setError(byId('sign-in-error'), reason || '');
  }

  /** Checks the token with GET /v4/_me; kept only when the gateway accepts it. */
  function signIn(candidate) {
    token = candidate;
    return api('GET', '/v4/_me').then(function (answer) {
      if (!answer.ok) {
        signOut('This token is refused: ' + answer.message);
        return;
      }
      storeToken(candidate);
      setError(byId('sign-in-error'), '');
      signedIn(answer.result);
    });
  }

  byId('sign-in-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var input = byId('token');
    var candidate = input.value.trim().replace(/^Bearer\s+/i, '');
    input.value = '';
    if (candidate === '') return setError(byId('sign-in-error'), 'Paste a token first.');
    signIn(candidate);
  });
  byId('sign-out').addEventListener('click', function () { signOut(''); });

  // --- search -----------------------------------------------------------------------------------

  var TYPE = /^[a-z0-9][a-z0-9-]*$/;

  function rememberType(type) {
    var list = byId('entity-types');
    for (var i = 0; i < list.options.length; i++) if (list.options[i].value === type) return;
    var option = document.createElement('option');
    option.value = type;
    list.appendChild(option);
  }

  byId('search-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var type = byId('entity-type').value.trim();
    var body = byId('search-body').value;
    var error = byId('search-error');
    var total = byId('search-total');
    var table = byId('hits');
    var rows = table.querySelector('tbody');
    // the previous answer goes at once: what is shown next is this search's
    rows.textContent = '';
    show(table, false);
    show(total, false);
    setError(error, '');
    if (!TYPE.test(type)) {
      return setError(error, 'An entity type is a plural of lowercase letters, digits and "-" (countries, business-units).');
    }
    if (body.trim() === '') body = '{}';
    try { JSON.parse(body); } catch (e) {
      return setError(error, 'The body is not JSON: ' + e.message);
    }
    var section = byId('search');
    section.setAttribute('aria-busy', 'true');
    api('POST', '/v4/entity/' + type + '/search', body).then(function (answer) {
      section.setAttribute('aria-busy', 'false');
      if (!answer.ok) return setError(error, answer.message);
      rememberType(type);
      var result = answer.result || {};
      var hits = Array.isArray(result.hits) ? result.hits : [];
      total.textContent = 'total: ' + result.total + ', shown: ' + hits.length + (result.timed_out ? ' (timed out: partial)' : '');
      show(total, true);
      hits.forEach(function (hit) {
        var row = document.createElement('tr');
        cell(row, String(hit._id), 'id');
        cell(row, hit._score === null || hit._score === undefined ? '—' : String(hit._score), 'score');
        var source = document.createElement('pre');
        source.textContent = JSON.stringify(hit._source, null, 2);
        cell(row, '', 'source').appendChild(source);
        rows.appendChild(row);
      });
      show(table, hits.length > 0);
    });
  });

  // --- API keys ---------------------------------------------------------------------------------

  function formatTime(ms) {
    if (typeof ms !== 'number' || ms < 0) return 'never';
    return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  }

  function loadKeys() {
    var error = byId('keys-error');
    var section = byId('keys');
    section.setAttribute('aria-busy', 'true');
    return api('POST', '/v4/api-keys/_search?size=100', '{"sort":[{"_service_info.createdAt":{"order":"desc","unmapped_type":"long"}}]}').then(function (answer) {
      section.setAttribute('aria-busy', 'false');
      var rows = byId('key-list').querySelector('tbody');
      rows.textContent = '';
      if (!answer.ok) {
        byId('keys-total').textContent = '';
        return setError(error, answer.message);
      }
      setError(error, '');
      var hits = answer.result.hits || [];
      byId('keys-total').textContent = answer.result.total === 1 ? '1 key' : answer.result.total + ' keys' + (hits.length < answer.result.total ? ' (the newest ' + hits.length + ' shown)' : '');
      hits.forEach(function (hit) {
        var key = hit._source || {};
        var row = document.createElement('tr');
        row.dataset.keyId = hit._id;
        cell(row, hit._id, 'id');
        cell(row, key.description === undefined ? '' : String(key.description));
        cell(row, key.userId === undefined ? '' : String(key.userId));
        cell(row, formatTime(key.expiresAt));
        cell(row, typeof key.fingerprint === 'string' ? key.fingerprint.slice(0, 12) + '…' : '', 'fingerprint');
        var revoke = document.createElement('button');
        revoke.type = 'button';
        revoke.className = 'revoke';
        revoke.textContent = 'Revoke';
        revoke.addEventListener('click', function () { revokeKey(hit._id, String(key.description || '')); });
        cell(row, '').appendChild(revoke);
        rows.appendChild(row);
      });
    });
  }

  function revokeKey(id, description) {
    if (!window.confirm('Revoke the API key "' + id + '"' + (description ? ' (' + description + ')' : '') + '? Its token stops working at once.')) return;
    api('DELETE', '/v4/api-keys/' + encodeURIComponent(id)).then(function (answer) {
      if (!answer.ok) return setError(byId('keys-error'), answer.message);
      if (byId('new-key-id').textContent === id) hideNewKey();
      loadKeys();
    });
  }

  function hideNewKey() {
    byId('new-key-token').value = '';
    byId('new-key-id').textContent = '';
    byId('copy-status').textContent = '';
    show(byId('new-key'), false);
  }

  byId('create-key-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var description = byId('key-description').value;
    var expiresIn = byId('key-expires').value.trim();
    var path = '/v4/api-keys/_create' + (expiresIn === '' ? '' : '?expiresIn=' + encodeURIComponent(expiresIn));
    hideNewKey();
    api('POST', path, JSON.stringify({ description: description })).then(function (answer) {
      if (!answer.ok) return setError(byId('keys-error'), answer.message);
      setError(byId('keys-error'), '');
      // shown once: kept only in this input, never stored
      byId('new-key-id').textContent = answer.result._id;
      byId('new-key-token').value = answer.result._source.token;
      show(byId('new-key'), true);
      byId('new-key-token').select();
      loadKeys();
    });
  });

  byId('copy-key').addEventListener('click', function () {
    var input = byId('new-key-token');
    var status = byId('copy-status');
    var copied = function () { status.textContent = 'Copied.'; };
    var fallback = function () {
      input.select();
      status.textContent = document.execCommand && document.execCommand('copy') ? 'Copied.' : 'Select the token and copy it (Ctrl+C).';
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(copied, fallback);
    else fallback();
  });
  byId('dismiss-key').addEventListener('click', hideNewKey);
  byId('refresh-keys').addEventListener('click', function () { loadKeys(); });

  // --- start ------------------------------------------------------------------------------------

  var saved = storedToken();
  if (saved !== null && saved !== '') signIn(saved);
  else signOut('');
})();
