// TypeScript compiled with source maps: the interfaces vanish from the
// JavaScript, so its lines differ from these.
import { shout, Options } from './util';

interface Person {
  name: string;
  age: number;
}

type Greeting = {
  text: string;
  length: number;
};

function greet(p: Person): Greeting {
  const text: string = `Hello, ${p.name} (${p.age})`; // BP:ts-greet
  return { text, length: text.length };
}

const people: Person[] = [
  { name: 'Ada', age: 36 },
  { name: 'Linus', age: 28 },
];
const opts: Options = { loud: true };
for (const p of people) {
  const g: Greeting = greet(p);
  console.log(shout(g.text, opts), g.length);
}
