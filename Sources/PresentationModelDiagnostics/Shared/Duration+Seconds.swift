extension Duration {
  /// The duration in seconds, as `Date` and `Thread.sleep` take it.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// Seconds rounded to hundredths, as failure messages print them: `1.0`, `0.05`.
  package var roundedSeconds: Double { (seconds * 100).rounded() / 100 }
}
