// An async function with await.
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function fetchValue(x) {
  const doubled = x * 2; // BP:async-enter
  await delay(5);
  const result = doubled + 1; // BP:after-await
  return result;
}

async function main() {
  const v = await fetchValue(20); // BP:async-call
  console.log('value', v);
}

main();
