/// An error thrown on a worker thread (reading ahead, walking ahead), carried to the thread that
/// rethrows it.
///
/// Unchecked Sendable: what the workers catch are the journal's and the walk's errors
/// (`JournalError`, `MomentError`, codec errors), which are Sendable values; the box only hides
/// `any Error` from the checker, and the worker keeps no reference to the error once it has
/// handed it over.
struct HandedOverError: @unchecked Sendable { // a Sendable error value, handed over and not kept
    let error: any Error
}
