/* Grids in the standard ARC palette, and the arc3 track's 64x64 frames in ARC-AGI-3's, on canvases.
 *
 * Each cell is a whole number of device pixels, so a grid stays crisp at any size; the canvas is
 * scaled by CSS with image-rendering: pixelated. A canvas carries its grid's size in data-rows and
 * data-cols (and the colours in data-cells, row-major digits, for a quick look in the inspector).
 */
"use strict";

(function (CAV) {
  CAV.ARC_PALETTE = [
    "#000000", "#0074D9", "#FF4136", "#2ECC40", "#FFDC00",
    "#AAAAAA", "#F012BE", "#FF851B", "#7FDBFF", "#870C25",
  ];

  /* ARC-AGI-3's colours 0-15, as continual_arc.tracks.arc3.games.render.PALETTE has them. */
  CAV.FRAME_PALETTE = [
    "#FFFFFF", "#CCCCCC", "#999999", "#666666", "#333333", "#000000", "#E53AA3", "#FF7BCC",
    "#F93C31", "#1E93FF", "#88D8F1", "#FFDC00", "#FF851B", "#921231", "#4FCC30", "#A356D0",
  ];

  function isGrid(value) {
    return Array.isArray(value) && value.length > 0 && value.every((row) => Array.isArray(row));
  }
  CAV.isGrid = isGrid;

  /* Draw `grid` on `canvas`, cells `cell` CSS pixels wide, with a hairline between cells when large. */
  CAV.drawGrid = function (canvas, grid, cell, palette = CAV.ARC_PALETTE) {
    const rows = grid.length;
    const cols = Math.max(...grid.map((r) => r.length));
    const ratio = window.devicePixelRatio || 1;
    const px = Math.max(1, Math.round(cell * ratio));
    const gap = px >= 10 ? Math.max(1, Math.round(ratio)) : 0;
    canvas.width = cols * px;
    canvas.height = rows * px;
    canvas.style.width = (cols * px) / ratio + "px";
    canvas.style.height = (rows * px) / ratio + "px";
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#555";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    grid.forEach((row, y) => {
      row.forEach((value, x) => {
        ctx.fillStyle = palette[value] || "#ff00ff";
        ctx.fillRect(x * px, y * px, px - gap, px - gap);
      });
    });
    canvas.dataset.rows = rows;
    canvas.dataset.cols = cols;
    canvas.dataset.cell = px;
    canvas.dataset.cells = grid.map((r) => r.join("")).join("/");
  };

  /* A figure holding a grid scaled to fit `box` CSS pixels (cells at most 24), with a caption. */
  CAV.gridFigure = function (grid, caption, role, box = 180) {
    if (!isGrid(grid)) {
      return CAV.el("figure.grid.missing", { dataset: { role: role || "" } },
        CAV.el("div.nogrid", {}, grid === null || grid === undefined ? "no grid recorded" : "not a grid: " + String(grid).slice(0, 80)),
        caption ? CAV.el("figcaption", {}, caption) : null);
    }
    const longest = Math.max(grid.length, ...grid.map((r) => r.length));
    const cell = Math.max(2, Math.min(24, Math.floor(box / longest)));
    const canvas = CAV.el("canvas.arc", { dataset: { role: role || "" } });
    CAV.drawGrid(canvas, grid, cell);
    const size = grid.length + "×" + Math.max(...grid.map((r) => r.length));
    canvas.setAttribute("aria-label", (caption || "grid") + ", " + size);
    return CAV.el("figure.grid", {}, canvas, CAV.el("figcaption", {}, caption ? caption + " · " + size : size));
  };

  /* A frame as text ("f1:" then runs: a colour letter a-p and its length when above 1) or as rows. */
  CAV.decodeFrame = function (frame) {
    if (isGrid(frame)) return frame;
    if (typeof frame !== "string" || !frame.startsWith("f1:")) throw new Error("not a frame encoding");
    const flat = [];
    const runs = /([a-p])(\d*)/g;
    const body = frame.slice(3);
    let at = 0;
    for (const match of body.matchAll(runs)) {
      if (match.index !== at) throw new Error("a frame encoding holds a stray character");
      const length = match[2] ? parseInt(match[2], 10) : 1;
      const colour = match[1].charCodeAt(0) - 97;
      for (let i = 0; i < length; i++) flat.push(colour);
      at = match.index + match[0].length;
    }
    if (at !== body.length || flat.length !== 64 * 64) throw new Error("a frame must spell out 4096 cells");
    const rows = [];
    for (let y = 0; y < 64; y++) rows.push(flat.slice(y * 64, y * 64 + 64));
    return rows;
  };

  /* A 64x64 frame drawn on `canvas`, cells `cell` CSS pixels wide, in ARC-AGI-3's 16 colours. */
  CAV.drawFrame = function (canvas, frame, cell = 4) {
    CAV.drawGrid(canvas, CAV.decodeFrame(frame), cell, CAV.FRAME_PALETTE);
  };
})(window.CAV);
