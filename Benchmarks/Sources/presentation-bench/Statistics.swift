/// The distribution of one figure over the repetitions of a run.
struct Statistics: Codable, Sendable {
  let median: Double
  let minimum: Double
  let maximum: Double
  /// First and third quartile.
  let lowerQuartile: Double
  let upperQuartile: Double
  let count: Int

  init(_ samples: [Double]) {
    precondition(!samples.isEmpty, "Statistics need at least one sample")
    let sorted = samples.sorted()
    func quantile(_ q: Double) -> Double {
      let position = q * Double(sorted.count - 1)
      let lower = Int(position.rounded(.down))
      let upper = Swift.min(lower + 1, sorted.count - 1)
      let fraction = position - Double(lower)
      return sorted[lower] * (1 - fraction) + sorted[upper] * fraction
    }
    median = quantile(0.5)
    minimum = sorted[0]
    maximum = sorted[sorted.count - 1]
    lowerQuartile = quantile(0.25)
    upperQuartile = quantile(0.75)
    count = sorted.count
  }

  /// The interquartile range relative to the median, in percent: the spread printed as `±`.
  var spreadPercent: Double {
    median == 0 ? 0 : (upperQuartile - lowerQuartile) / 2 / median * 100
  }
}
