// Owns the version Switchboard reports (serverInfo, --version, the daemon's state file). A module of
// its own so that reading it loads nothing else (the CLI's start-up and the shim stay light).
export const VERSION = '0.1.0';
