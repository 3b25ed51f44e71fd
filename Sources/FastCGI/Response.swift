/// What a handler answers: a status, headers (a name may repeat, as
/// `Set-Cookie` does) and the body bytes.
public struct Response: Sendable, Equatable {
  public var status: Int
  /// In order; names as they should be sent.
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = [])
  {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The first value of a header, by case-insensitive name.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Every value of a header, by case-insensitive name (e.g. each `Set-Cookie`).
  public func headers(named name: String) -> [String] {
    headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
  }

  public static func == (lhs: Response, rhs: Response) -> Bool {
    lhs.status == rhs.status && lhs.body == rhs.body
      && lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
  }
}
