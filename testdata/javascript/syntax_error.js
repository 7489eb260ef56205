// A script that does not parse.
function broken( {
  return 1;
}
broken();
