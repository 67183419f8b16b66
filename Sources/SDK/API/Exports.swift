// The public API mentions core types (CallOutcome, SwitchResult, ProjectFingerprint, ...): an app
// writes only `import SDK` and gets them too.
@_exported import SDKCore
