extension Duration {
  /// Seconds rounded to hundredths, as failure messages print them: `1.0`, `0.05`.
  package var roundedSeconds: Double {
    let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
    return (seconds * 100).rounded() / 100
  }
}
