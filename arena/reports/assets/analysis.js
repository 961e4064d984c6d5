// wuzi report, analysis layer (only in pages of analysed runs): under the viewer's board an
// evaluation graph of the game (black's view, clamped), the current position marked, the
// decisive mistake as a red dot and a red line in the move list, and the analyst's move at
// each position (a green ring on the board, a line of text). It runs after the viewer
// (report.js), which lends it its SVG helper and otherwise knows nothing of it: this script
// follows the viewer's position through its "move N / M" line.
(function () {
  'use strict';
  var gamesNode = document.getElementById('wuzi-games');
  var confNode = document.getElementById('wuzi-analysis');
  var plyInfo = document.getElementById('ply-info');
  var title = document.getElementById('viewer-title');
  var holder = document.getElementById('board-holder');
  if (!gamesNode || !confNode || !plyInfo || !title || !holder || !window.wuziSvg) return;
  var data = JSON.parse(gamesNode.textContent), games = data.games;
  var conf = JSON.parse(confNode.textContent);
  var sv = window.wuziSvg;
  var box = document.createElement('div');
  box.id = 'eval-graph';
  var line = document.createElement('p');
  line.id = 'analyst-line';
  holder.parentNode.insertBefore(box, holder.nextSibling);
  holder.parentNode.insertBefore(line, box.nextSibling);

  function scoreText(v) {
    if (v === null || v === undefined) return '-';
    if (v >= conf.mateBound) return 'win' + (conf.mate - v);
    if (v <= -conf.mateBound) return 'loss' + (conf.mate + v);
    return String(v);
  }
  // A mover's score at ply p from black's view (black moves at even plies).
  function black(v, p) { return v === null || v === undefined ? null : (p % 2 === 0 ? v : -v); }
  // Black's score of the position after p moves: the analyst's score before the move at p,
  // or for the position after the last analysed move, the mover's score after it.
  function evalAt(an, p) {
    var i = p - an.f;
    if (i >= 0 && i < an.s.length) return black(an.s[i], p);
    if (i === an.s.length && i > 0) return black(an.a[i - 1], p - 1);
    return null;
  }

  var W = 480, H = 150, L = 44, R = 8, T = 10, B = 18;
  var graph = { k: -1, svg: null, cursor: null, xs: null };
  function build(k) {
    box.textContent = '';
    graph = { k: k, svg: null, cursor: null, xs: null };
    var g = games[k], an = g && g.an;
    if (!an) return;
    var board = holder.querySelector('svg.board');
    if (board) W = Number(board.getAttribute('width')) || W;
    var n = an.s.length, C = conf.clamp;
    var xs = function (p) { return L + (p - an.f) * (W - L - R) / Math.max(1, n); };
    var ys = function (v) { return T + (H - T - B) * (1 - (Math.max(-C, Math.min(C, v)) + C) / (2 * C)); };
    var svg = sv('svg', { 'class': 'eval', width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
    svg.appendChild(sv('title', {}, 'evaluation by ' + conf.analyst + ', black\'s view, within ±' + C));
    svg.appendChild(sv('rect', { 'class': 'bg', x: L, y: T, width: W - L - R, height: H - T - B }));
    svg.appendChild(sv('line', { 'class': 'zero', x1: L, y1: ys(0), x2: W - R, y2: ys(0) }));
    svg.appendChild(sv('text', { 'class': 'lab', x: L - 4, y: ys(C) + 4 }, '+' + C));
    svg.appendChild(sv('text', { 'class': 'lab', x: L - 4, y: ys(0) + 4 }, '0'));
    svg.appendChild(sv('text', { 'class': 'lab', x: L - 4, y: ys(-C) + 4 }, '-' + C));
    svg.appendChild(sv('text', { 'class': 'lab', x: xs(an.f), y: H - 4, 'text-anchor': 'start' }, 'move ' + (an.f + 1)));
    svg.appendChild(sv('text', { 'class': 'lab', x: W - R, y: H - 4 }, 'move ' + (an.f + n)));
    var d = '', pen = false, points = 0;
    for (var p = an.f; p <= an.f + n; p++) {
      var v = evalAt(an, p);
      if (v === null) { pen = false; continue; }
      d += (pen ? 'L' : 'M') + xs(p).toFixed(1) + ' ' + ys(v).toFixed(1);
      pen = true;
      points++;
      if (Math.abs(v) >= conf.mateBound) {
        svg.appendChild(sv('circle', { 'class': 'mate', cx: xs(p), cy: ys(v), r: 2.5, 'data-p': p }));
      }
    }
    svg.appendChild(sv('path', { 'class': 'score', d: d, 'data-points': points }));
    if (an.x !== undefined && an.x !== null) {
      // The dot sits on the position the mistake left (where the curve falls).
      var after = evalAt(an, an.x + 1), before = evalAt(an, an.x);
      var at = after !== null ? an.x + 1 : an.x, v2 = after !== null ? after : before;
      if (v2 !== null) {
        var dot = sv('circle', { 'class': 'decisive', cx: xs(at), cy: ys(v2), r: 5, 'data-ply': an.x });
        dot.appendChild(sv('title', {}, 'decisive mistake: move ' + (an.x + 1)));
        svg.appendChild(dot);
      }
    }
    var cursor = sv('line', { 'class': 'cursor', x1: 0, y1: T, x2: 0, y2: H - B });
    svg.appendChild(cursor);
    // A click on the graph goes to that position through the viewer's own move list.
    svg.addEventListener('click', function (e) {
      var r = svg.getBoundingClientRect();
      var x = (e.clientX - r.left) * W / r.width;
      var p = Math.round(an.f + (x - L) * Math.max(1, n) / (W - L - R));
      p = Math.max(an.f, Math.min(an.f + n, p));
      var row = document.querySelector('#move-table tbody tr[data-ply="' + p + '"]');
      if (p === 0) document.getElementById('btn-first').click();
      else if (row) row.click();
    });
    box.appendChild(svg);
    graph.svg = svg;
    graph.cursor = cursor;
    graph.xs = xs;
  }

  function update() {
    var m = /^Game (\d+):/.exec(title.textContent), q = /^move (\d+)/.exec(plyInfo.textContent);
    if (!m || !q) return;
    var k = Number(m[1]) - 1, ply = Number(q[1]), g = games[k];
    if (!g) return;
    if (k !== graph.k) build(k);
    var an = g.an;
    line.textContent = '';
    line.className = 'note';
    if (!an) {
      line.textContent = 'not analysed';
      return;
    }
    var n = an.s.length, i = ply - an.f;
    if (graph.cursor) {
      var inside = ply >= an.f && ply <= an.f + n;
      graph.cursor.setAttribute('visibility', inside ? 'visible' : 'hidden');
      if (inside) {
        graph.cursor.setAttribute('x1', graph.xs(ply));
        graph.cursor.setAttribute('x2', graph.xs(ply));
      }
    }
    // The decisive move's line in the move list (rebuilt by the viewer for each game).
    if (an.x !== undefined && an.x !== null) {
      var row = document.querySelector('#move-table tbody tr[data-ply="' + (an.x + 1) + '"]');
      if (row && !row.classList.contains('decisive')) {
        row.classList.add('decisive');
        row.title = 'decisive mistake';
        if (row.cells[1]) row.cells[1].textContent += ' \u2717 decisive';
      }
    }
    if (i < 0 || i >= n) {
      line.textContent = 'analyst ' + conf.analyst + ': ' + (i < 0 ? 'opening, not analysed' : 'final position, eval ' + scoreText(evalAt(an, ply)) + ' (black)');
      return;
    }
    var moves = g.mv.split(' '), best = an.b[i], played = moves[ply];
    var text = (ply === an.x ? 'decisive mistake next: ' : '') + 'analyst (' + (ply % 2 === 0 ? 'black' : 'white') +
      ' to move): ' + (best || '-') + ', score ' + scoreText(an.s[i]);
    if (played && played !== best) text += '; played ' + played + ', after it ' + scoreText(an.a[i]);
    line.textContent = text;
    if (ply === an.x) line.className = 'note bad';
    var layer = holder.querySelector('svg.board g.pieces');
    if (best && layer) {
      var C = 30, M = 30, size = data.size;
      var x = best.charCodeAt(0) - 97, y = parseInt(best.slice(1), 10) - 1;
      layer.appendChild(sv('circle', { 'class': 'analyst', cx: M + x * C, cy: M + (size - 1 - y) * C, r: C * 0.3, 'data-pt': best }));
    }
  }
  new MutationObserver(update).observe(plyInfo, { childList: true, characterData: true, subtree: true });
  update();

  // #selftest: after the viewer's own check, open the first game with a decisive mistake
  // at that move and check the graph, the marks and the analyst's move; the verdict is added
  // to the viewer's pre element.
  window.addEventListener('load', function () {
    var out = document.getElementById('selftest');
    if (!/selftest/.test(location.hash) || !out) return;
    var fails = [], facts = [];
    var k = -1;
    games.forEach(function (g, j) { if (k < 0 && g.an && g.an.x !== undefined) k = j; });
    var rowFor = document.querySelector('[data-open-game="' + k + '"]');
    if (k < 0 || !rowFor) {
      facts.push('analysis-decisive=0');
    } else {
      rowFor.click();
      var an = games[k].an;
      var mv = document.querySelector('#move-table tbody tr[data-ply="' + an.x + '"]');
      if (mv) mv.click(); else document.getElementById('btn-first').click();
      update();
      var path = box.querySelector('path.score');
      var points = path ? Number(path.getAttribute('data-points')) : 0;
      if (points < 2) fails.push('evaluation graph of game ' + (k + 1) + ' has ' + points + ' points');
      if (!box.querySelector('circle.decisive')) fails.push('no decisive-mistake dot');
      if (!document.querySelector('#move-table tr.decisive')) fails.push('no decisive line in the move list');
      var ring = holder.querySelector('circle.analyst');
      var best = an.b[an.x - an.f];
      if (best && (!ring || ring.getAttribute('data-pt') !== best)) fails.push('analyst move ' + best + ' not on the board');
      if (!/decisive mistake next/.test(line.textContent)) fails.push('analyst line: ' + line.textContent);
      if (graph.cursor.getAttribute('visibility') !== 'visible') fails.push('no current-position mark');
      facts.push('analysis-game=' + (k + 1) + ' graph-points=' + points);
    }
    out.textContent += '\n' + (fails.length ? 'ANALYSIS FAIL\n' + fails.join('\n') : 'ANALYSIS PASS') + ' ' + facts.join(' ');
  });
})();
