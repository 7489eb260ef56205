// The child of parent.js: computes a value and prints it.
const how = process.argv[2];
const parts = [how, 'child', 6 * 7];
const answer = parts.join(' '); // BP:child
console.log('child says', answer);
