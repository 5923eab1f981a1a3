// The house's idioms as ESLint rules on the syntax tree (docs/architecture.md, "House
// rules"), so no spelling dodges them: a line break, parentheses or a different quote
// change the text, not the tree. Each rule is tried on the spellings it must catch and the
// code it must leave alone by tests/unit/house-rules.test.ts.

/** A rule that reports every node one of `selectors` matches, with its message. */
function selectorRule(description, selectors) {
  return {
    meta: { type: "problem", docs: { description }, schema: [] },
    create(context) {
      return Object.fromEntries(selectors.map(([selector, message]) => [selector, (node) => context.report({ node, message })]));
    },
  };
}

/** `getDb()`, also behind a type assertion (`getDb() as Db`) or parentheses. */
function isGetDbCall(node) {
  while (node && (node.type === "TSAsExpression" || node.type === "TSSatisfiesExpression" || node.type === "TSNonNullExpression" || node.type === "TSTypeAssertion")) node = node.expression;
  return node?.type === "CallExpression" && node.callee.type === "Identifier" && node.callee.name === "getDb";
}

/**
 * The variable `name` resolves to from `node`'s scope: whether it holds the app's own
 * client, `getDb()` (declared from it, or a parameter defaulting to it).
 */
function holdsAppClient(context, node, name) {
  for (let scope = context.sourceCode.getScope(node); scope; scope = scope.upper) {
    const variable = scope.set.get(name);
    if (!variable) continue;
    return variable.defs.some((def) => {
      if (def.type === "Variable") return isGetDbCall(def.node.init);
      if (def.type === "Parameter") {
        const parent = def.name.parent;
        return parent?.type === "AssignmentPattern" && isGetDbCall(parent.right);
      }
      return false;
    });
  }
  return false;
}

// Drizzle's writes, and the client's own ways to send SQL that may write.
const WRITES = new Set(["insert", "update", "delete", "run", "batch"]);

const ERROR_CLASS = "One error class: Refusal (app/lib/refusal.ts). Say no with refuse.*, not a class of its own.";
const DETAIL_CAST = "Read what a refusal carries through its typed channel (refusalDetail(...).of), not through a cast.";
const MESSAGE_READ = "Decide by the refusal's kind or channel (isRefusal, refusalDetail), never by reading an error's message.";
const SWEDISH_ERROR = "A message for a person is a Refusal (refuse.invalid/notFound/…), not a plain Error.";
const SEARCH = "Read a URL's parameters with a zod schema: readSearch / param (app/lib/search-params.ts).";
const BARREL = "Import a feature through its barrel: ~/features/<f> (client-safe) or ~/features/<f>/index.server.";

export default {
  meta: { name: "house" },
  rules: {
    "one-error-class": selectorRule("Refusal is the one error class", [
      [":matches(ClassDeclaration, ClassExpression)[superClass.name=/Error$/]", ERROR_CLASS],
      [":matches(ClassDeclaration, ClassExpression)[superClass.property.name=/Error$/]", ERROR_CLASS],
      [":matches(TSTypeAliasDeclaration, TSInterfaceDeclaration, ClassDeclaration)[id.name='Refusal']", "Refusal is declared once, in app/lib/refusal.ts."],
    ]),
    "refusal-detail-channel": selectorRule("a refusal's detail is read through its channel", [
      [":matches(TSAsExpression, TSTypeAssertion, TSSatisfiesExpression) > MemberExpression.expression[property.name='detail']", DETAIL_CAST],
      ["MemberExpression[property.name='detail'] > TSAsExpression.object", DETAIL_CAST],
      ["MemberExpression[property.name='detail'] > TSTypeAssertion.object", DETAIL_CAST],
    ]),
    "no-ok-false": selectorRule("a rule says no by throwing a Refusal", [
      [":matches(Property[key.name='ok'], Property[key.value='ok'])[value.type='Literal'][value.value=false]", "Say no by throwing a Refusal (app/lib/refusal.ts), not with an { ok: false } result."],
    ]),
    "no-message-reading": selectorRule("no decision on an error's message", [
      ["CallExpression[callee.property.name=/^(test|exec)$/] > MemberExpression.arguments[property.name='message']", MESSAGE_READ],
      ["CallExpression[callee.property.name='test'] > Identifier.arguments[name='message']", MESSAGE_READ],
      ["CallExpression[callee.property.name=/^(includes|startsWith|endsWith|match|matchAll|indexOf|search)$/] > MemberExpression.callee MemberExpression[property.name='message']", MESSAGE_READ],
      ["BinaryExpression[operator=/^[!=]==?$/] > MemberExpression[property.name='message']", MESSAGE_READ],
      ["SwitchStatement > MemberExpression.discriminant[property.name='message']", MESSAGE_READ],
    ]),
    "no-swedish-error": selectorRule("a message for a person is a Refusal", [
      [":matches(NewExpression, CallExpression)[callee.name='Error'] > Literal.arguments[value=/[åäöÅÄÖ]/]", SWEDISH_ERROR],
      [":matches(NewExpression, CallExpression)[callee.name='Error'] > TemplateLiteral.arguments > TemplateElement[value.raw=/[åäöÅÄÖ]/]", SWEDISH_ERROR],
    ]),
    "search-through-schema": selectorRule("URL parameters are read through a schema", [
      ["MemberExpression[property.name='searchParams']", SEARCH],
      ["MemberExpression[property.value='searchParams']", SEARCH],
      ["ObjectPattern > Property[key.name='searchParams']", SEARCH],
    ]),
    "no-hand-rolled-rows": selectorRule("a file's rows are read with csvRow", [
      ["Identifier[name='rowChecker']", "Read a file's rows with csvRow and its zod schema."],
      ["CallExpression[callee.object.name='check'][callee.property.name=/^(int|required)$/]", "Read a file's rows with csvRow and its zod schema."],
    ]),
    "barrel-dynamic-import": selectorRule("a dynamic import reaches a feature through its barrel too", [
      ["ImportExpression[source.value=/^(~|(\\.\\.\\/)+app)\\/features\\/[^/]+\\/(?!index(\\.server)?$)/]", BARREL],
      ["ImportExpression[source.value=/^drizzle-orm/]", "SQL belongs in a feature (app/features/<f>); call its rule."],
      ["ImportExpression[source.type!='Literal']", "Import a module by its name (a string), so the house's import rules can read it."],
    ]),
    "write-through-queue": {
      meta: {
        type: "problem",
        docs: { description: "the app writes only in writeTransaction / writeIfFree" },
        schema: [],
      },
      create(context) {
        return {
          CallExpression(node) {
            const callee = node.callee;
            if (callee.type !== "MemberExpression" || callee.computed || !WRITES.has(callee.property.name)) return;
            const receiver = callee.object;
            const direct = isGetDbCall(receiver) || (receiver.type === "Identifier" && holdsAppClient(context, node, receiver.name));
            if (direct) {
              context.report({
                node,
                message:
                  "Write in writeTransaction (or writeIfFree): the app's own client waits only its 20 ms busy timeout for a lock another process holds (db/client.ts).",
              });
            }
          },
        };
      },
    },
  },
};
