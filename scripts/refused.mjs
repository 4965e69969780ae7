// A start the exec benches mean to be refused: the launcher's and the broker's refusal exits 126;
// any other end (it ran, or failed another way) stops the bench, which would measure something else.
export function refused(start) {
  try {
    start();
  } catch (err) {
    if (err.status === 126) return;
    throw err;
  }
  throw new Error('a start meant to be refused ran');
}
