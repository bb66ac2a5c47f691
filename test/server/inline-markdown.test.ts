import { expect, test } from "bun:test";
import { inlineMarkdown } from "../../src/server/inline-markdown.ts";
import { exampleOf, typeWords } from "../../src/server/schema-example.ts";

test("code spans, strong, emphasis and links become HTML; nothing else does", () => {
  expect(inlineMarkdown("`invalid_request`: a **bad** body, see *the manual* or [the API](/docs#query).")).toBe(
    '<code>invalid_request</code>: a <strong>bad</strong> body, see <em>the manual</em> or <a href="/docs#query">the API</a>.',
  );
  expect(inlineMarkdown("2 * 3 * 4, a_b_c, rq-…")).toBe("2 * 3 * 4, a_b_c, rq-…");
});

test("markup in a description is text: escaped before any span is made, inside code spans too", () => {
  expect(inlineMarkdown('<img src=x onerror="alert(1)"> `<script>`')).toBe(
    "&#60;img src=x onerror=&#34;alert(1)&#34;&#62; <code>&#60;script&#62;</code>",
  );
  expect(inlineMarkdown('[a](x" onclick="alert(1))')).not.toContain('onclick="');
  // Only the web, this server's paths and anchors are linked: a script link stays text.
  expect(inlineMarkdown("[click](javascript:alert.call) [x](data:text/html,hi) [y](//evil.example)")).toBe("click x y");
  // Markdown inside a code span is kept as written.
  expect(inlineMarkdown("`**not bold**`")).toBe("<code>**not bold**</code>");
});

test("an example is made from the schema when it has none: required fields, typed optional ones, refs followed", () => {
  const schemas = {
    Item: { type: "object", required: ["id"], properties: { id: { type: "string", format: "uuid" } } },
  };
  const body = {
    type: "object",
    required: ["name"],
    properties: {
      name: { type: "string", examples: ["team-notes"] },
      visibility: { enum: ["private", "shared"] },
      limit: { type: "integer", minimum: 5 },
      items: { type: "array", items: { $ref: "#/components/schemas/Item" } },
      ignored: { description: "accepted and ignored" },
    },
  };
  expect(exampleOf(body, schemas)).toEqual({
    name: "team-notes",
    visibility: "private",
    limit: 5,
    items: [{ id: "00000000-0000-0000-0000-000000000000" }],
  });
  expect(typeWords(body.properties.items, schemas)).toBe("a list of `Item`");
  expect(typeWords(body.properties.visibility, schemas)).toBe('one of `"private"`, `"shared"`');
  // TypeBox's union of literals: branches of one const each.
  expect(
    typeWords(
      {
        anyOf: [
          { const: "private", type: "string" },
          { const: "shared", type: "string" },
        ],
      },
      schemas,
    ),
  ).toBe('one of `"private"`, `"shared"`');
});
