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
    headers.first { Self.sameName($0.name, name) }?.value
  }

  /// Every value of a header, by case-insensitive name (e.g. each `Set-Cookie`).
  public func headers(named name: String) -> [String] {
    headers.filter { Self.sameName($0.name, name) }.map(\.value)
  }

  /// Header names compared without regard to ASCII case, without building
  /// lower-cased copies (this runs several times for every response).
  static func sameName(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    for (x, y) in zip(a.utf8, b.utf8) where x != y {
      guard x | 0x20 == y | 0x20, (x | 0x20) >= UInt8(ascii: "a"), (x | 0x20) <= UInt8(ascii: "z")
      else { return false }
    }
    return true
  }

  public static func == (lhs: Response, rhs: Response) -> Bool {
    lhs.status == rhs.status && lhs.body == rhs.body
      && lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
  }
}
