import Foundation
import Sandbox
import SDK

extension Transport {
    /// Sends `request` and suspends until its completion has run; `recorder` (a fresh one by
    /// default) sees every completion call, so callers can check there was exactly one.
    func result(
        for request: TransportRequest,
        recorder: CompletionRecorder = CompletionRecorder()
    ) async -> TransportResult {
        send(request, completion: recorder.record)
        return await recorder.waitForCount(1)[0]
    }
}

extension TransportResult {
    /// The status of a response, nil for a network error.
    var status: Int? {
        guard case .response(let status, _, _) = self else { return nil }
        return status
    }

    /// The headers of a response, empty for a network error.
    var headers: [String: String] {
        guard case .response(_, let headers, _) = self else { return [:] }
        return headers
    }

    /// The body of a response decoded as a JSON object, nil when it is not one.
    var jsonObject: [String: Any]? {
        guard case .response(_, _, let body) = self else { return nil }
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    /// The `code` field of an API result body.
    var apiCode: String? {
        jsonObject?["code"] as? String
    }

    /// The description of a network error, nil for a response.
    var networkErrorDescription: String? {
        guard case .networkError(let description) = self else { return nil }
        return description
    }
}

extension SandboxBackend {
    /// The absolute URL of `endpoint` (which may carry a query) in `region`.
    func url(_ endpoint: String, region: String) -> URL? {
        URL(string: endpoint, relativeTo: baseURL(region: region))?.absoluteURL
    }
}
