// The page's behaviour (inlined by html.rs; no network, no libraries).
// - Panes: each listing is chunks of JSON rows in boxes of their final height; a
//   chunk becomes rows when scrolled near, or when a link needs one of its rows.
// - Links between levels: hovering a row lights up the rows of the other levels it
//   corresponds to (source line <-> vISA LOC lines <-> Gen `$N` lines); a click also
//   scrolls the other panes to them. In a vISA pane, the rows writing or reading what
//   the hovered row names are marked as well.
// - The pressure chart: drawn from its data at any zoom; drag to zoom, double-click
//   for the whole kernel, click for the instruction.
// - The CFG: a search over block names, and a fold (a <details> element).
(function () {
  'use strict';
  var ROW = 16;
  var panes = {};   // 'k0-visa' -> pane
  var kernels = {}; // k -> {links, src2visa, visa2gen}

  function Pane(el) {
    this.el = el;
    this.body = el.querySelector('.body');
    this.k = el.dataset.k;
    this.level = el.dataset.level;
    this.chunks = Array.prototype.slice.call(el.querySelectorAll('.chunk'));
    this.lit = [];
    this.cur = -1;
    this.names = null;
    this.chunk = +el.dataset.chunk;
  }
  Pane.prototype.chunkOf = function (i) {
    return this.chunks[Math.floor(i / this.chunk)];
  };
  Pane.prototype.render = function (c) {
    if (!c || c.dataset.done) return;
    c.dataset.done = '1';
    var data = JSON.parse(c.firstElementChild.textContent);
    var first = +c.dataset.first, frag = document.createDocumentFragment();
    for (var j = 0; j < data.length; j++) {
      var r = data[j], f = r[3] || 0, d = document.createElement('div');
      d.className = 'r' + (f & 1 ? ' label' : '') + (f & 2 ? ' finding' : '') +
        (f & 4 ? ' spill' : '') + (f & 8 ? ' fill' : '');
      d.dataset.i = first + j;
      if (r[1]) d.dataset.d = r[1];
      if (r[2]) d.dataset.u = r[2];
      var ln = document.createElement('span');
      ln.className = 'ln';
      ln.textContent = first + j + 1;
      d.appendChild(ln);
      d.appendChild(document.createTextNode(r[0]));
      frag.appendChild(d);
    }
    c.textContent = '';
    c.appendChild(frag);
    this.paint(c);
  };
  Pane.prototype.row = function (i) {
    var c = this.chunkOf(i);
    if (!c) return null;
    this.render(c);
    return c.children[i - c.dataset.first] || null;
  };
  Pane.prototype.rendered = function (i) {
    var c = this.chunkOf(i);
    return c && c.dataset.done ? c.children[i - c.dataset.first] : null;
  };
  // Marks of the linked rows, and of what the hovered row's names touch.
  Pane.prototype.paint = function (c) {
    var first = +c.dataset.first, n = c.children.length, self = this;
    var lit = {};
    this.lit.forEach(function (i) { if (i >= first && i < first + n) lit[i] = 1; });
    for (var j = 0; j < n; j++) {
      var r = c.children[j], i = first + j;
      r.classList.toggle('lk', !!lit[i]);
      r.classList.toggle('cur', i === self.cur);
      mark(r, self.names);
    }
    c.dataset.v = this.version || 0;
  };
  Pane.prototype.light = function (lines, cur) {
    var self = this;
    this.lit.forEach(function (i) {
      var r = self.rendered(i);
      if (r) r.classList.remove('lk', 'cur');
    });
    if (this.cur >= 0) {
      var old = this.rendered(this.cur);
      if (old) old.classList.remove('cur');
    }
    this.lit = lines;
    this.cur = cur;
    lines.forEach(function (i) {
      var r = self.rendered(i);
      if (r) r.classList.add('lk');
    });
    var c = cur >= 0 ? this.rendered(cur) : null;
    if (c) c.classList.add('cur');
  };
  Pane.prototype.reveal = function (i) {
    this.row(i);
    this.body.scrollTop = Math.max(0, i * ROW - this.body.clientHeight / 3);
    var self = this;
    // The rows around it too (the observer would, a frame later).
    [-1, 1].forEach(function (d) { self.row(Math.max(0, i + d * self.chunk)); });
  };
  // Marks what `names` touch in the chunks in view now; a chunk scrolled into view
  // later is marked then (its `names` version is behind).
  Pane.prototype.markNames = function (names) {
    this.names = names;
    this.version = (this.version || 0) + 1;
    var from = Math.floor(this.body.scrollTop / ROW / this.chunk) - 1;
    var to = from + Math.ceil(this.body.clientHeight / ROW / this.chunk) + 2;
    for (var c = Math.max(0, from); c <= to && c < this.chunks.length; c++) this.freshen(this.chunks[c]);
  };
  Pane.prototype.freshen = function (c) {
    if (!c.dataset.done || +c.dataset.v === (this.version || 0)) return;
    c.dataset.v = this.version || 0;
    for (var j = 0; j < c.children.length; j++) mark(c.children[j], this.names);
  };
  function split(s) { return (s || '').split(' ').filter(Boolean); }
  function mark(r, names) {
    r.classList.remove('hd', 'hu');
    if (!names || !names.length) return;
    var d = split(r.dataset.d), u = split(r.dataset.u);
    if (names.some(function (n) { return d.indexOf(n) >= 0; })) r.classList.add('hd');
    else if (names.some(function (n) { return u.indexOf(n) >= 0; })) r.classList.add('hu');
  }

  document.querySelectorAll('.pane').forEach(function (el) {
    var p = new Pane(el);
    panes[el.id] = p;
    var seen = function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        p.render(e.target);
        p.freshen(e.target);
      });
    };
    if (window.IntersectionObserver) {
      var io = new IntersectionObserver(seen, { root: p.body, rootMargin: '600px 0px' });
      p.chunks.forEach(function (c) { io.observe(c); });
    } else {
      p.chunks.forEach(function (c) { p.render(c); });
    }
    p.body.addEventListener('mouseover', function (e) { hover(p, e, false); });
    p.body.addEventListener('click', function (e) { hover(p, e, true); });
  });

  function kernel(k) {
    if (kernels[k]) return kernels[k];
    var el = document.getElementById('k' + k + '-links');
    var links = el ? JSON.parse(el.textContent) : { src: [], gen: [] };
    var src2visa = {}, visa2gen = {};
    links.src.forEach(function (s, v) {
      if (s !== null) (src2visa[s] = src2visa[s] || []).push(v);
    });
    links.gen.forEach(function (v, g) {
      if (v !== null) (visa2gen[v] = visa2gen[v] || []).push(g);
    });
    return (kernels[k] = { links: links, src2visa: src2visa, visa2gen: visa2gen });
  }

  // The rows of every level that row `i` of `level` corresponds to.
  function linked(k, level, i) {
    var K = kernel(k), L = K.links, out = { source: [], visa: [], gen: [] };
    var genOf = function (vs) {
      var g = [];
      vs.forEach(function (v) { (K.visa2gen[v] || []).forEach(function (x) { g.push(x); }); });
      return g;
    };
    if (level === 'source') {
      out.source = [i];
      out.visa = K.src2visa[i] || [];
      out.gen = genOf(out.visa);
    } else if (level === 'visa') {
      out.visa = [i];
      if (L.src[i] != null) out.source = [L.src[i]];
      out.gen = genOf([i]);
    } else {
      var v = L.gen[i];
      out.gen = [i];
      if (v != null) {
        out.visa = [v];
        out.gen = genOf([v]);
        if (L.src[v] != null) out.source = [L.src[v]];
      }
    }
    return out;
  }

  function select(k, level, i, scroll) {
    var sets = linked(k, level, i);
    ['source', 'visa', 'gen'].forEach(function (lv) {
      var p = panes['k' + k + '-' + lv];
      if (!p) return;
      p.light(sets[lv], lv === level ? i : -1);
      if (scroll && lv !== level && sets[lv].length) p.reveal(sets[lv][0]);
    });
    return sets;
  }

  function hover(p, e, scroll) {
    var r = e.target.closest('.r');
    if (!r) return;
    var i = +r.dataset.i;
    select(p.k, p.level, i, scroll);
    if (p.level === 'visa') p.markNames(split(r.dataset.d).concat(split(r.dataset.u)));
  }

  // Links to `#kK-lN` (CFG blocks, findings, the chart's peak): line N of the vISA
  // pane (the listing of a page without levels is its `visa` pane too).
  function follow() {
    var m = /^#k(\d+)-l(\d+)$/.exec(location.hash);
    if (!m) return;
    var p = panes['k' + m[1] + '-visa'];
    if (!p) return;
    var i = +m[2];
    p.el.scrollIntoView({ block: 'nearest' });
    p.reveal(i);
    select(m[1], 'visa', i, true);
  }
  window.addEventListener('hashchange', follow);
  follow();

  // ---- the pressure chart
  document.querySelectorAll('.zoom').forEach(function (box) {
    var data = JSON.parse(box.querySelector('script').textContent);
    var main = box.querySelector('canvas.main'), over = box.querySelector('canvas.over');
    var info = box.querySelector('.zinfo'), k = box.dataset.k;
    var n = data.est.length, view = [0, n], drag = null;
    var L = 56, R = 12, T = 10, B = 26;
    function size(c) {
      var r = window.devicePixelRatio || 1, w = c.clientWidth || 960, h = c.clientHeight;
      c.width = w * r; c.height = h * r;
      var g = c.getContext('2d');
      g.setTransform(r, 0, 0, r, 0, 0);
      return { g: g, w: w, h: h };
    }
    // Per pixel column of [a, b): the largest value of each series.
    function columns(a, b, w) {
      var cols = [], span = Math.max(1, b - a);
      for (var x = 0; x < w; x++) {
        var s = a + Math.floor(span * x / w), e = Math.max(s + 1, a + Math.floor(span * (x + 1) / w));
        var c = { est: 0, bytes: 0, phys: 0, s: s, e: Math.min(e, n) };
        for (var i = s; i < e && i < n; i++) {
          if (data.est[i] > c.est) c.est = data.est[i];
          if (data.bytes && data.bytes[i] > c.bytes) c.bytes = data.bytes[i];
          if (data.phys && data.phys[i] > c.phys) c.phys = data.phys[i];
        }
        cols.push(c);
      }
      return cols;
    }
    var top = 1;
    data.est.forEach(function (v) { if (v > top) top = v; });
    if (data.phys) data.phys.forEach(function (v) { if (v > top) top = v; });
    if (data.budget && data.budget > top) top = data.budget;
    top = Math.ceil(top * 1.08);
    function plot(c, a, b, full) {
      var g = c.g, w = c.w - L - R, h = c.h - T - B;
      g.clearRect(0, 0, c.w, c.h);
      g.font = '11px sans-serif';
      var y = function (v) { return T + h - h * v / top; };
      var xOf = function (i) { return L + w * (i - a) / Math.max(1, b - a); };
      // Grid and axes.
      g.strokeStyle = '#eee'; g.fillStyle = '#333'; g.textAlign = 'right';
      var step = nice(top / (full ? 2 : 6));
      for (var v = 0; v <= top; v += step) {
        g.beginPath(); g.moveTo(L, y(v)); g.lineTo(L + w, y(v)); g.stroke();
        g.fillText(String(v), L - 4, y(v) + 4);
      }
      g.textAlign = 'center';
      var xs = nice((b - a) / 8) || 1;
      for (var t = Math.ceil(a / xs) * xs; t <= b; t += xs) g.fillText(String(t), xOf(t), T + h + 14);
      if (b - a < 2000) {
        g.strokeStyle = '#dde3ec';
        data.blocks.forEach(function (s) {
          if (s >= a && s < b) { g.beginPath(); g.moveTo(xOf(s), T); g.lineTo(xOf(s), T + h); g.stroke(); }
        });
      }
      var cols = columns(a, b, Math.max(1, Math.round(w)));
      var colW = w / cols.length;
      // The estimate in whole GRFs, as an area.
      g.fillStyle = 'rgba(156,195,230,0.6)';
      cols.forEach(function (cl, x) { var yy = y(cl.est); g.fillRect(L + x * colW, yy, colW + 0.5, T + h - yy); });
      var line = function (key, scale, color) {
        g.strokeStyle = color; g.lineWidth = 1.3; g.beginPath();
        cols.forEach(function (cl, x) {
          var yy = y(cl[key] / scale);
          if (x) g.lineTo(L + x * colW, yy); else g.moveTo(L, yy);
          g.lineTo(L + (x + 1) * colW, yy);
        });
        g.stroke(); g.lineWidth = 1;
      };
      if (data.bytes) line('bytes', data.grf, '#1e7b3c');
      if (data.phys) line('phys', 1, '#8e44ad');
      if (data.budget) {
        g.strokeStyle = '#c0392b'; g.setLineDash([6, 3]); g.beginPath();
        g.moveTo(L, y(data.budget)); g.lineTo(L + w, y(data.budget)); g.stroke(); g.setLineDash([]);
      }
      (data.spills || []).forEach(function (sp) {
        if (sp[0] < a || sp[0] >= b) return;
        g.fillStyle = sp[1] ? '#e67e22' : '#c0392b';
        var xx = xOf(sp[0] + 0.5);
        g.beginPath(); g.moveTo(xx, T + h); g.lineTo(xx - 4, T + h + 7); g.lineTo(xx + 4, T + h + 7); g.fill();
      });
      if (data.peak !== null && data.peak >= a && data.peak < b) {
        g.fillStyle = '#c0392b'; g.beginPath();
        g.arc(xOf(data.peak + 0.5), y(data.est[data.peak]), 3.5, 0, 7); g.fill();
      }
      return { xOf: xOf, at: function (px) { return Math.floor(a + (px - L) * (b - a) / w); } };
    }
    function nice(x) {
      if (x <= 0) return 1;
      var p = Math.pow(10, Math.floor(Math.log(x) / Math.LN10)), m = x / p;
      return Math.max(1, (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p);
    }
    var scaleMain, scaleOver;
    function draw() {
      scaleMain = plot(size(main), view[0], view[1], false);
      var o = size(over);
      scaleOver = plot(o, 0, n, true);
      var g = o.g;
      g.fillStyle = 'rgba(74,111,165,0.18)';
      g.fillRect(scaleOver.xOf(view[0]), 0, scaleOver.xOf(view[1]) - scaleOver.xOf(view[0]), o.h);
      info.textContent = 'instructions ' + view[0] + '\u2013' + (view[1] - 1) + ' of ' + n;
    }
    function px(c, e) { return e.clientX - c.getBoundingClientRect().left; }
    function zoomTo(a, b) {
      a = Math.max(0, Math.min(a, n - 1)); b = Math.max(a + 1, Math.min(b, n));
      view = [a, b]; draw();
    }
    [[main, function () { return scaleMain; }], [over, function () { return scaleOver; }]].forEach(function (cs) {
      var c = cs[0], sc = cs[1];
      c.addEventListener('mousedown', function (e) { drag = { c: c, from: sc().at(px(c, e)) }; });
      c.addEventListener('mouseup', function (e) {
        if (!drag || drag.c !== c) return;
        var to = sc().at(px(c, e)), from = drag.from;
        drag = null;
        if (Math.abs(to - from) >= 2) zoomTo(Math.min(from, to), Math.max(from, to) + 1);
        else if (c === main && to >= 0 && to < n) {
          var line = data.lines ? data.lines[to] : Math.min(data.first + to, data.last);
          var p = panes['k' + k + '-visa'];
          if (p) { p.reveal(line); select(k, 'visa', line, true); }
          info.textContent = 'instruction ' + to + ': ' + data.est[to] + ' GRFs' +
            (data.bytes ? ', ' + data.bytes[to] + ' live bytes' : '') +
            (data.phys ? ', ' + data.phys[to] + ' physical GRFs' : '');
        }
      });
      c.addEventListener('dblclick', function () { zoomTo(0, n); });
    });
    main.addEventListener('wheel', function (e) {
      e.preventDefault();
      var at = scaleMain.at(px(main, e)), f = e.deltaY > 0 ? 1.5 : 1 / 1.5;
      var a = Math.round(at - (at - view[0]) * f), b = Math.round(at + (view[1] - at) * f);
      zoomTo(a, Math.max(b, a + 8));
    }, { passive: false });
    window.gpukitZoom = window.gpukitZoom || {};
    window.gpukitZoom[k] = zoomTo;
    draw();
  });

  // ---- the CFG: find blocks by name
  document.querySelectorAll('.cfgbox').forEach(function (box) {
    var input = box.querySelector('input'), out = box.querySelector('.hits');
    var blocks = Array.prototype.slice.call(box.querySelectorAll('g.block'));
    var hits = [], at = 0;
    input.addEventListener('input', function () {
      var q = input.value.toLowerCase();
      hits = [];
      blocks.forEach(function (b) {
        var hit = q && b.querySelector('title').textContent.toLowerCase().indexOf(q) >= 0;
        b.classList.toggle('hit', !!hit);
        if (hit) hits.push(b);
      });
      at = 0;
      out.textContent = q ? hits.length + ' blocks' : '';
      if (hits.length) hits[0].scrollIntoView({ block: 'center', inline: 'center' });
    });
    input.addEventListener('keydown', function (e) {
      if (e.key !== 'Enter' || !hits.length) return;
      at = (at + 1) % hits.length;
      hits[at].scrollIntoView({ block: 'center', inline: 'center' });
      out.textContent = (at + 1) + ' of ' + hits.length + ' blocks';
    });
  });

  window.gpukitPanes = { select: select, panes: panes };
})();
