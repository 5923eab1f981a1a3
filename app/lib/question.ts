/** A question asked before a change that reaches many retailers (decision 029): a title and what the change will do. */
export type Question = { title: string; text: string };
