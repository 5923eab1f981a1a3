/**
 * Runs `portal <args>` somewhere other than the caller's event loop and settles when it
 * has ended (rejects when it failed). The web server hands one to loaders and actions
 * (its load context's `portal`): a child process with the server's own environment, so a
 * long job (the invoice run) never holds up the requests the server answers meanwhile.
 */
export type PortalCommand = (args: string[]) => Promise<void>;
