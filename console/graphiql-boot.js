/*
 * Starts GraphiQL on the gateway's GraphQL IDE page (graphiql.html, served at GET /graphql to
 * browsers). A file of its own, not an inline script, so that the page's Content-Security-Policy
 * allows no inline script. React, ReactDOM and GraphiQL are the UMD builds served by the gateway
 * from its node_modules: nothing is loaded from another origin.
 *
 * Queries and mutations go to POST /graphql, subscriptions to graphql-ws at ws(s)://<this host>/graphql,
 * both with the headers of the Headers tab (graphql-ws gets them as its connectionParams). Signed in
 * on the console (/), the tab's token is filled in; it is never written to localStorage
 * (shouldPersistHeaders is off) nor put in a URL. `?query=`, `?variables=` and `?operationName=` in
 * the page's URL fill the editors.
 */
(function () {
  'use strict';

  var TOKEN_KEY = 'gateway-console-token';
  var EXAMPLE = [
    '# Search the countries with the Elasticsearch query DSL (put your token in Headers below).',
    '# Run with Ctrl-Enter; the Docs and History buttons are on the left.',
    'query Search {',
    '  search(type: "countries", query: {match: {name: "france"}}, size: 5) {',
    '    total',
    '    hits { id score entity { slug ... on Country { name code } } }',
    '  }',
    '}',
    '',
  ].join('\n');

  var token = null;
  try { token = sessionStorage.getItem(TOKEN_KEY); } catch (e) { /* no storage: the placeholder */ }
  if (token !== null && token !== '') {
    document.getElementById('bar-text').textContent = 'Signed in on the console: its token is in the Headers tab.';
  }
  var PLACEHOLDER = 'Bearer <token>';
  var headers = JSON.stringify({ Authorization: token !== null && token !== '' ? 'Bearer ' + token : PLACEHOLDER }, null, 2);

  var params = new URLSearchParams(window.location.search);
  var param = function (name) { var value = params.get(name); return value === null ? undefined : value; };

  var send = GraphiQL.createFetcher({
    url: window.location.origin + '/graphql',
    subscriptionUrl: (window.location.protocol === 'https:' ? 'wss:' : 'ws:') + '//' + window.location.host + '/graphql',
  });
  // The placeholder left as it is: no Authorization at all (over HTTP and graphql-ws alike), so that
  // the schema still loads and an operation is told it has no token, instead of a refused token
  // counted against RATE_LIMIT_AUTH_FAILURES.
  var fetcher = function (params, options) {
    var sent = options && options.headers;
    if (sent && sent.Authorization === PLACEHOLDER) {
      var rest = {};
      Object.keys(sent).forEach(function (name) { if (name !== 'Authorization') rest[name] = sent[name]; });
      options = Object.assign({}, options, { headers: rest });
    }
    return send(params, options);
  };

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: EXAMPLE,
      query: param('query'),
      variables: param('variables'),
      operationName: param('operationName'),
      headers: headers,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
    })
  );
})();
