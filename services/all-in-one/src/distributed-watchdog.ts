// Loaded with --import into every child of distributed mode. The supervisor opens an IPC channel only to
// notice its own death: when the channel drops (the supervisor exited or was killed, e.g. a crashed test
// worker), the child stops through its normal SIGTERM drain instead of living on as an orphan.
if (process.channel) {
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
  // The channel must not keep the process alive once the service has stopped by itself.
  process.channel.unref();
}
