// wuzi report: sortable tables and the game viewer. No network access; the games are the JSON
// in <script id="wuzi-games">. Open with #game=K&ply=N to show a position, #selftest to check
// the page in a headless browser (the result goes into a pre element, id selftest).
(function () {
  'use strict';
  var errors = [];
  var selftest = /selftest/.test(location.hash);
  var initialHash = location.hash;
  window.addEventListener('error', function (e) {
    errors.push('error: ' + (e && e.message ? e.message : String(e)));
  });
  var consoleError = console.error;
  console.error = function () {
    errors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return consoleError.apply(console, arguments);
  };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) { for (var k in attrs) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); } }
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  var SVGNS = 'http://www.w3.org/2000/svg';
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  // Shared with the analysis layer (assets/analysis.js), which runs after this script.
  window.wuziSvg = sv;

  // ---- sortable tables: click a header (or Enter on it) to sort by that column ----
  function cellKey(td) {
    var v = td.getAttribute('data-v');
    var t = v !== null ? v : td.textContent.trim();
    var n = Number(t);
    if (t !== '' && !isNaN(n)) return { n: n };
    var m = /^[-+]?\d+(\.\d+)?/.exec(t);
    if (m) return { n: parseFloat(m[0]), s: t.toLowerCase() };
    return { s: t.toLowerCase() };
  }
  function compareKeys(a, b) {
    if (a.n !== undefined && b.n !== undefined) return a.n - b.n;
    if (a.n !== undefined) return -1;
    if (b.n !== undefined) return 1;
    return a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
  }
  function sortTable(table, col, th) {
    var dir = th.getAttribute('data-dir') === 'asc' ? 'desc' : 'asc';
    var ths = table.tHead.rows[0].cells;
    for (var i = 0; i < ths.length; i++) ths[i].removeAttribute('data-dir');
    th.setAttribute('data-dir', dir);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (r, i) { return { r: r, i: i, k: cellKey(r.cells[col] || r.cells[0]) }; });
    keyed.sort(function (a, b) {
      var c = compareKeys(a.k, b.k);
      if (dir === 'desc') c = -c;
      return c !== 0 ? c : a.i - b.i;
    });
    keyed.forEach(function (x) { body.appendChild(x.r); });
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    if (!table.tHead || !table.tBodies.length) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.addEventListener('click', function () { sortTable(table, col, th); });
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sortTable(table, col, th); });
    });
  });

  // ---- the game viewer ----
  var dataNode = document.getElementById('wuzi-games');
  var data = dataNode ? JSON.parse(dataNode.textContent) : null;
  var viewer = null;
  if (data && document.getElementById('viewer')) viewer = makeViewer(data);

  function parseMoves(text) {
    if (!text) return [];
    return text.split(' ').map(function (t) {
      return { x: t.charCodeAt(0) - 97, y: parseInt(t.slice(1), 10) - 1, t: t };
    });
  }

  function makeViewer(data) {
    var size = data.size, games = data.games;
    var C = 30, M = 30, W = 2 * M + C * (size - 1);
    var state = { k: -1, ply: 0, moves: [], forb: {}, filtered: games.map(function (g, i) { return i; }), page: 0 };
    var PAGE = 50;
    var holder = document.getElementById('board-holder');
    var svg = sv('svg', { 'class': 'board', width: W, height: W, viewBox: '0 0 ' + W + ' ' + W, role: 'img' });
    var X = function (x) { return M + x * C; };
    var Y = function (y) { return M + (size - 1 - y) * C; };
    for (var i = 0; i < size; i++) {
      svg.appendChild(sv('line', { 'class': 'grid', x1: X(0), y1: Y(i), x2: X(size - 1), y2: Y(i) }));
      svg.appendChild(sv('line', { 'class': 'grid', x1: X(i), y1: Y(0), x2: X(i), y2: Y(size - 1) }));
      svg.appendChild(sv('text', { 'class': 'coord', x: X(i), y: W - M / 2 + 2 }, String.fromCharCode(97 + i)));
      svg.appendChild(sv('text', { 'class': 'coord', x: M / 2 - 4, y: Y(i) }, i + 1));
    }
    var c = (size - 1) / 2;
    if (size % 2 === 1) svg.appendChild(sv('circle', { cx: X(c), cy: Y(c), r: 3, fill: '#5b4520' }));
    var layer = sv('g', { 'class': 'pieces' });
    svg.appendChild(layer);
    holder.appendChild(svg);

    var note = document.getElementById('games-note');
    note.textContent = data.note || '';
    var filterBox = document.getElementById('game-filter');
    var listBody = document.querySelector('#game-list tbody');

    function hay(g) {
      return [g.k + 1, g.pair, g.b, g.w, g.bp, g.wp, g.op, g.res, g.why, g.det || '', g.mu || '', g.mv].join(' ').toLowerCase();
    }
    var hays = games.map(hay);
    function applyFilter() {
      var words = filterBox.value.toLowerCase().split(/\s+/).filter(function (w) { return w; });
      state.filtered = [];
      for (var i = 0; i < games.length; i++) {
        var ok = words.every(function (w) { return hays[i].indexOf(w) >= 0; });
        if (ok) state.filtered.push(i);
      }
      state.page = 0;
      renderList();
    }
    function renderList() {
      var pages = Math.max(1, Math.ceil(state.filtered.length / PAGE));
      state.page = Math.min(Math.max(0, state.page), pages - 1);
      listBody.textContent = '';
      var from = state.page * PAGE;
      state.filtered.slice(from, from + PAGE).forEach(function (i) {
        var g = games[i];
        var tr = el('tr', { 'class': 'click', 'data-game': i });
        if (i === state.k) tr.className += ' cur';
        [g.k + 1, g.pair, g.g, g.b, g.w, g.op, parseMoves(g.mv).length, g.res, g.why].forEach(function (v, j) {
          tr.appendChild(el('td', j < 3 || j === 6 ? { 'class': 'n' } : null, v));
        });
        tr.addEventListener('click', function () { select(i, null); show(); });
        listBody.appendChild(tr);
      });
      document.getElementById('page-info').textContent = state.filtered.length + ' game(s), page ' + (state.page + 1) + ' of ' + pages;
    }
    filterBox.addEventListener('input', applyFilter);
    document.getElementById('page-prev').addEventListener('click', function () { state.page--; renderList(); });
    document.getElementById('page-next').addEventListener('click', function () { state.page++; renderList(); });

    function meta(rows) {
      var body = document.querySelector('#game-meta tbody');
      body.textContent = '';
      rows.forEach(function (r) {
        if (r[1] === null || r[1] === undefined || r[1] === '') return;
        var tr = el('tr');
        tr.appendChild(el('th', null, r[0]));
        var td = el('td', null, typeof r[1] === 'object' ? null : r[1]);
        if (typeof r[1] === 'object') td.appendChild(r[1]);
        tr.appendChild(td);
        body.appendChild(tr);
      });
    }
    // Links to the game's --log-io files, relative to the run folder (the report's default
    // place); null when the run kept none.
    function ioLinks(files) {
      if (!files || !files.length) return null;
      var span = el('span');
      files.forEach(function (f, i) {
        if (i > 0) span.appendChild(document.createTextNode(' '));
        span.appendChild(el('a', { href: f }, f.replace(/^.*\//, '')));
      });
      return span;
    }
    function sum(a, from, step) {
      var s = 0, any = false;
      for (var i = from; i < a.length; i += step) { if (a[i] !== null) { s += a[i]; any = true; } }
      return any ? s : null;
    }
    function select(k, ply) {
      if (k < 0 || k >= games.length) return;
      var g = games[k];
      state.k = k;
      state.moves = parseMoves(g.mv);
      state.forb = {};
      (g.f || []).forEach(function (e) { state.forb[e[0]] = parseMoves(e[1]); });
      state.ply = ply === null ? state.moves.length : Math.max(0, Math.min(ply, state.moves.length));
      var winner = g.res === '1-0' ? 'black (' + g.b + ')' : g.res === '0-1' ? 'white (' + g.w + ')' : null;
      var first = g.ol % 2; // colour of the first move after the opening: 0 black
      var nb = sum(g.n, first === 0 ? 0 : 1, 2), nw = sum(g.n, first === 0 ? 1 : 0, 2);
      var tb = sum(g.t, first === 0 ? 0 : 1, 2), tw = sum(g.t, first === 0 ? 1 : 0, 2);
      document.getElementById('viewer-title').textContent = 'Game ' + (g.k + 1) + ': ' + g.b + ' (black) vs ' + g.w + ' (white), ' + g.res;
      meta([
        ['black', g.b + (g.bp ? ' (' + g.bp + ')' : '')],
        ['white', g.w + (g.wp ? ' (' + g.wp + ')' : '')],
        ['matchup', g.mu],
        ['result', g.res + (winner ? ', ' + winner + ' wins' : ', draw')],
        ['reason', g.why],
        ['detail', g.det],
        ['opening', g.op + ': ' + state.moves.slice(0, g.ol).map(function (m) { return m.t; }).join(' ')],
        ['pair / game / seed', g.pair + ' / ' + g.g + ' / ' + g.seed],
        ['limits sent to black', g.bg],
        ['limits sent to white', g.wg],
        ['black protocol notes', (g.bn || []).join('\n')],
        ['white protocol notes', (g.wn || []).join('\n')],
        ['protocol logs', ioLinks(g.io)],
        ['nodes (black / white)', (nb === null ? '-' : nb) + ' / ' + (nw === null ? '-' : nw)],
        ['time ms (black / white)', (tb === null ? '-' : tb) + ' / ' + (tw === null ? '-' : tw) + ' (game ' + g.ms + ')'],
        ['moves', g.mv]
      ]);
      var body = document.querySelector('#move-table tbody');
      body.textContent = '';
      state.moves.forEach(function (m, i) {
        var j = i - g.ol;
        var tr = el('tr', { 'class': 'click' + (j < 0 ? ' op' : ''), 'data-ply': i + 1 });
        var cells = [i + 1, m.t, (i % 2 === 0 ? 'black' : 'white') + (j < 0 ? ' (opening)' : ''),
          j < 0 || g.n[j] === null ? '' : g.n[j], j < 0 ? '' : g.t[j],
          j < 0 || g.d[j] === null ? '' : g.d[j], j < 0 || g.s[j] === null ? '' : g.s[j]];
        cells.forEach(function (v, c) { tr.appendChild(el('td', c === 0 || c > 2 ? { 'class': 'n' } : null, v)); });
        tr.addEventListener('click', function () { go(i + 1); });
        body.appendChild(tr);
      });
      Array.prototype.forEach.call(listBody.rows, function (r) {
        r.classList.toggle('cur', Number(r.getAttribute('data-game')) === k);
      });
      draw();
    }
    function draw() {
      layer.textContent = '';
      var g = games[state.k];
      for (var i = 0; i < state.ply; i++) {
        var m = state.moves[i], col = i % 2 === 0 ? 'b' : 'w';
        layer.appendChild(sv('circle', { 'class': 'stone ' + col, cx: X(m.x), cy: Y(m.y), r: C * 0.46, 'data-pt': m.t }));
        var t = sv('text', { 'class': 'num ' + col + (i < g.ol ? ' op' : ''), x: X(m.x), y: Y(m.y) + 1 }, i + 1);
        if (i + 1 >= 100) t.setAttribute('style', 'font-size:10px');
        layer.appendChild(t);
      }
      if (state.ply > 0) {
        var last = state.moves[state.ply - 1];
        layer.appendChild(sv('circle', { 'class': 'last', cx: X(last.x), cy: Y(last.y), r: C * 0.5, 'data-pt': last.t }));
      }
      (state.forb[state.ply] || []).forEach(function (p) {
        var d = C * 0.22, gx = sv('g', { 'class': 'forbidden', 'data-pt': p.t });
        gx.appendChild(sv('line', { x1: X(p.x) - d, y1: Y(p.y) - d, x2: X(p.x) + d, y2: Y(p.y) + d }));
        gx.appendChild(sv('line', { x1: X(p.x) - d, y1: Y(p.y) + d, x2: X(p.x) + d, y2: Y(p.y) - d }));
        layer.appendChild(gx);
      });
      var side = state.ply % 2 === 0 ? 'black' : 'white';
      var label = 'move ' + state.ply + ' / ' + state.moves.length;
      if (state.ply === state.moves.length) label += ' (end: ' + g.res + ' ' + g.why + ')';
      else label += ', ' + side + ' to move';
      document.getElementById('ply-info').textContent = label;
      var rows = document.querySelectorAll('#move-table tbody tr');
      for (var r = 0; r < rows.length; r++) {
        var cur = r === state.ply - 1;
        rows[r].classList.toggle('cur', cur);
        if (cur) {
          // Keep the current move in the middle of the move list (without scrolling the page).
          var box = document.querySelector('.moves');
          var delta = rows[r].getBoundingClientRect().top - box.getBoundingClientRect().top;
          if (delta < 30 || delta > box.clientHeight - 30) box.scrollTop += delta - box.clientHeight / 2;
        }
      }
      if (!selftest && history.replaceState) {
        try { history.replaceState(null, '', '#game=' + (state.k + 1) + '&ply=' + state.ply); } catch (e) { /* file: URLs in some browsers */ }
      }
    }
    function go(ply) {
      if (state.k < 0) return;
      state.ply = Math.max(0, Math.min(ply, state.moves.length));
      draw();
    }
    function step(d) { go(state.ply + d); }
    function nextGame(d) {
      var pos = state.filtered.indexOf(state.k);
      var n = pos < 0 ? (d > 0 ? 0 : state.filtered.length - 1) : pos + d;
      if (n >= 0 && n < state.filtered.length) {
        select(state.filtered[n], null);
        var page = Math.floor(n / PAGE);
        if (page !== state.page) { state.page = page; renderList(); }
      }
    }
    function show() { document.getElementById('viewer-title').scrollIntoView({ block: 'start' }); }
    document.getElementById('btn-first').addEventListener('click', function () { go(0); });
    document.getElementById('btn-prev').addEventListener('click', function () { step(-1); });
    document.getElementById('btn-next').addEventListener('click', function () { step(1); });
    document.getElementById('btn-last').addEventListener('click', function () { go(state.moves.length); });
    document.getElementById('btn-game-prev').addEventListener('click', function () { nextGame(-1); });
    document.getElementById('btn-game-next').addEventListener('click', function () { nextGame(1); });
    document.addEventListener('keydown', function (e) {
      var t = e.target && e.target.tagName;
      if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT' || e.altKey || e.ctrlKey || e.metaKey) return;
      var done = true;
      if (e.key === 'ArrowLeft') step(-1);
      else if (e.key === 'ArrowRight') step(1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(state.moves.length);
      else if (e.key === 'n') nextGame(1);
      else if (e.key === 'p') nextGame(-1);
      else done = false;
      if (done) e.preventDefault();
    });
    // Rows elsewhere in the page (non-five endings) that name a game open it here.
    Array.prototype.forEach.call(document.querySelectorAll('[data-open-game]'), function (row) {
      row.classList.add('click');
      row.addEventListener('click', function () {
        var k = Number(row.getAttribute('data-open-game'));
        if (k >= 0 && k < games.length) { select(k, null); show(); }
      });
    });
    renderList();
    if (games.length) select(0, null);
    return { select: select, go: go, state: state, svg: svg, games: games, show: show };
  }

  // #game=K&ply=N opens game K (1-based in the list) at ply N.
  (function openFromHash() {
    if (!viewer) return;
    var m = /game=(\d+)/.exec(initialHash), p = /ply=(\d+)/.exec(initialHash);
    if (m) {
      viewer.select(Number(m[1]) - 1, p ? Number(p[1]) : null);
      // &focus: the viewer alone (for links to a position and screenshots).
      if (/focus/.test(initialHash)) document.body.classList.add('focus');
    }
  })();

  // ---- self-check for headless browsers (#selftest) ----
  if (selftest) runSelftest();
  function runSelftest() {
    // Time from navigation start to here: parsing the page, its data and the first render.
    var facts = ['ready_ms=' + Math.round(performance.now())], fails = [];
    function check(ok, what) { if (!ok) fails.push(what); }
    function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); }
    function stones() { return viewer.svg.querySelectorAll('circle.stone').length; }
    function lastAt() { var l = viewer.svg.querySelector('circle.last'); return l ? l.getAttribute('data-pt') : null; }
    var charts = document.querySelectorAll('figure.chart svg').length;
    var expectCharts = Number(document.body.getAttribute('data-charts') || 0);
    facts.push('charts=' + charts);
    check(charts === expectCharts, 'expected ' + expectCharts + ' inline SVG charts, found ' + charts);
    if (viewer && !viewer.games.length) facts.push('games=0');
    if (viewer && viewer.games.length) {
      var games = viewer.games;
      var k = 0;
      games.forEach(function (g, i) { if (g.mv.length > games[k].mv.length) k = i; });
      viewer.select(k, null);
      var moves = parseMoves(games[k].mv), n = moves.length;
      facts.push('game=' + (k + 1) + ' moves=' + n);
      check(stones() === n, 'a selected game shows its final position (' + stones() + ' of ' + n + ' stones)');
      key('Home');
      check(stones() === 0 && lastAt() === null, 'Home: empty board');
      var steps = Math.min(n, 7);
      for (var i = 1; i <= steps; i++) {
        key('ArrowRight');
        check(stones() === i, 'ArrowRight to move ' + i + ': ' + stones() + ' stones');
        check(lastAt() === moves[i - 1].t, 'last-move mark on ' + moves[i - 1].t + ', found ' + lastAt());
      }
      var nums = Array.prototype.map.call(viewer.svg.querySelectorAll('text.num'), function (t) { return t.textContent; });
      check(nums.join(',') === Array.from({ length: steps }, function (_, i) { return String(i + 1); }).join(','), 'move numbers on the stones: ' + nums.join(','));
      key('End');
      check(stones() === n, 'End: all ' + n + ' stones');
      key('ArrowLeft');
      check(stones() === n - 1, 'ArrowLeft: one stone fewer');
      document.getElementById('btn-prev').click();
      check(stones() === Math.max(0, n - 2), 'back button');
      document.getElementById('btn-next').click();
      check(stones() === n - 1, 'forward button');
      facts.push('steps=' + (steps + 4));
      // Forbidden points: the first position that has some.
      var found = false;
      for (var g = 0; g < games.length && !found; g++) {
        var f = games[g].f || [];
        if (f.length) {
          found = true;
          viewer.select(g, f[0][0]);
          var want = parseMoves(f[0][1]).map(function (p) { return p.t; }).sort().join(' ');
          var shown = Array.prototype.map.call(viewer.svg.querySelectorAll('g.forbidden'), function (x) { return x.getAttribute('data-pt'); }).sort().join(' ');
          check(want === shown, 'forbidden marks at game ' + (g + 1) + ' move ' + f[0][0] + ': want ' + want + ', shown ' + shown);
          facts.push('forbidden=' + shown.split(' ').length);
          key('ArrowRight');
          check(viewer.svg.querySelectorAll('g.forbidden').length === 0 || f.some(function (e) { return e[0] === viewer.state.ply; }), 'forbidden marks only where black is to move');
        }
      }
      if (!found) facts.push('forbidden=0');
      var rows = document.querySelectorAll('#game-list tbody tr').length;
      check(rows === Math.min(50, games.length), 'game list shows ' + rows + ' rows');
    }
    var table = document.querySelector('table.sortable');
    if (table && table.tBodies[0].rows.length > 1) {
      var th = table.tHead.rows[0].cells[0];
      th.click();
      var first = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return cellKey(r.cells[0]); });
      var sorted = first.every(function (v, i) { return i === 0 || compareKeys(first[i - 1], v) <= 0; });
      th.click();
      var second = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return cellKey(r.cells[0]); });
      var rev = second.every(function (v, i) { return i === 0 || compareKeys(second[i - 1], v) >= 0; });
      check(sorted && rev, 'sorting a table by its first column');
      facts.push('sorted=' + table.id);
    }
    errors.forEach(function (e) { fails.push(e); });
    var out = el('pre', { id: 'selftest' }, (fails.length ? 'SELFTEST FAIL\n' + fails.join('\n') : 'SELFTEST PASS') + '\n' + facts.join(' '));
    document.body.appendChild(out);
  }
})();
