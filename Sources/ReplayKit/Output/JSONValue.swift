import SDK

// JSON values and their parser live in the SDK (its in-app diagnostics export redacts request
// bodies with them); the replay target names them as before.
package typealias JSONValue = SDK.JSONValue
typealias JSONParser = SDK.JSONParser
