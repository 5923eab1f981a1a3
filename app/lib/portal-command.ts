/**
 * Runs `portal <args>` somewhere other than the caller's event loop and settles when it
 * has ended (rejects when it failed). The web server hands one to loaders and actions
 * (its load context's `portal`): a child process with the server's own environment, so a
 * long job (the invoice run, a national month's Avstämning) never holds up the requests the
 * server answers meanwhile. With `capture` it resolves with what the command printed on
 * standard out (else that goes to the server's own log, and it resolves with "").
 */
export type PortalCommand = (args: string[], options?: { capture?: boolean }) => Promise<string>;
