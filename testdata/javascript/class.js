// A class with an array, a Map and a Set, and an object with a getter.
class Account {
  constructor(owner, balance) {
    this.owner = owner;
    this.balance = balance;
    this.history = [balance];
    this.tags = new Map([['tier', 'gold'], ['region', 'eu']]);
    this.flags = new Set(['active', 'verified']);
  }

  deposit(amount) {
    this.balance += amount; // BP:deposit
    this.history.push(this.balance);
    return this.balance;
  }
}

let getterCalls = 0;
const acct = new Account('ada', 100);
const view = {
  get expensive() {
    getterCalls++;
    return 42;
  },
  plain: 1,
};
acct.deposit(50);
console.log('balance', acct.balance, 'getterCalls', getterCalls, view.plain);
