// The image's HEALTHCHECK: exit 0 when this instance answers GET /api/health/ready with 200 (started, not
// shutting down, database and storage answering), else 1, also when no answer comes within 4 s. No curl in the
// image: Node's own fetch.
const port = process.env.PORT || '3000';
setTimeout(() => process.exit(1), 4000).unref();
try {
  const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
