function area(w, h) {
  const a = w * h; // BP:area
  return a;
}

module.exports = { area };
