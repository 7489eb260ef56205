// price.ts computes a wrong total (one too many) until it is fixed.
interface Order {
  qty: number;
  unit: number;
}

function total(o: Order): number {
  const sum: number = o.qty * o.unit;
  return sum + 1; // BP:wrong
}

const order: Order = { qty: 3, unit: 4 };
console.log("total=" + total(order));
