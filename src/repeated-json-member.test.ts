import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { repeatedMemberName } from "./repeated-json-member.js";

type Json = null | boolean | number | string | Json[] | { [name: string]: Json };

interface Style {
  /** Written around every token. */
  space: string;
  /** Member names with every character as \uXXXX. */
  escapeNames: boolean;
}

const nameText = (name: string, style: Style): string =>
  style.escapeNames
    ? `"${[...name]
        .map((ch) =>
          ch
            .split("")
            .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`)
            .join(""),
        )
        .join("")}"`
    : JSON.stringify(name);

/** JSON text of `value`; in the object `repeatIn`, its member `repeat` is written a second time. */
function write(value: Json, style: Style, repeatIn?: object, repeat?: string): string {
  const s = style.space;
  if (Array.isArray(value))
    return `[${s}${value.map((v) => write(v, style, repeatIn, repeat)).join(`${s},${s}`)}${s}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const members = Object.entries(value).map(
    ([name, v]) => `${nameText(name, style)}${s}:${s}${write(v, style, repeatIn, repeat)}`,
  );
  if (value === repeatIn && repeat !== undefined) {
    members.push(`${nameText(repeat, style)}${s}:${s}"again"`);
  }
  return `{${s}${members.join(`${s},${s}`)}${s}}`;
}

/** Every object in `value` with at least one member. */
function objectsWithMembers(value: Json, into: { [name: string]: Json }[] = []) {
  if (Array.isArray(value)) for (const v of value) objectsWithMembers(v, into);
  else if (value !== null && typeof value === "object") {
    if (Object.keys(value).length > 0) into.push(value);
    for (const v of Object.values(value)) objectsWithMembers(v, into);
  }
  return into;
}

const style = fc.record({
  space: fc.constantFrom("", " ", "\n\t \r"),
  escapeNames: fc.boolean(),
});
// Names and strings full of what a scanner could trip over: quotes, backslashes, colons, braces.
const tricky = fc.string({
  unit: fc.constantFrom("a", "b", '"', "\\", ":", "{", "}", "[", "é", "😀"),
});
const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, -1.5e-7),
    tricky,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(tricky, tie("value"), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

describe("repeatedMemberName", () => {
  it("default: null when no object repeats a name", () => {
    assert.equal(repeatedMemberName('{"amount":"5","to":"0x1"}'), undefined);
    assert.equal(repeatedMemberName('{"a":{"a":1},"b":[{"a":1},{"a":2}]}'), undefined);
    assert.equal(repeatedMemberName('{"a":"\\"b\\":","b":1}'), undefined);
    assert.equal(repeatedMemberName("[1,2]"), undefined);
  });

  it("behavior: names the repeated member, at any depth, escaped or not", () => {
    assert.equal(repeatedMemberName('{"amount":"5","to":"0x1","amount":"7"}'), "amount");
    assert.equal(repeatedMemberName('{ "a" : 1 , "\\u0061" : 2 }'), "a");
    assert.equal(repeatedMemberName('{"x":[{"k":1,"k":2}]}'), "k");
    assert.equal(repeatedMemberName('{"q\\"":1,"q\\"":2}'), 'q"');
  });

  it("property: text JSON.parse reads as the generated value -> no repeated name", () => {
    fc.assert(
      fc.property(json, style, (value, s) => {
        const text = write(value, s);
        assert.deepEqual(JSON.parse(text), value);
        assert.equal(repeatedMemberName(text), undefined);
      }),
      { numRuns: 500 },
    );
  });

  it("property: a name written twice in any one object is the one reported", () => {
    fc.assert(
      fc.property(json, style, fc.nat(), fc.nat(), (value, s, whichObject, whichName) => {
        const objects = objectsWithMembers(value);
        fc.pre(objects.length > 0);
        const target = objects[whichObject % objects.length] as { [name: string]: Json };
        const names = Object.keys(target);
        const name = names[whichName % names.length] as string;
        assert.equal(repeatedMemberName(write(value, s, target, name)), name);
      }),
      { numRuns: 500 },
    );
  });
});
