import PresentationModelTesting
import Testing

/// The Swift Programming Language, "Automatic Reference Counting"
/// (https://docs.swift.org/swift-book/documentation/the-swift-programming-language/automaticreferencecounting/):
/// each strong reference cycle the chapter builds, and the fix it gives as the twin.
enum SwiftBook {
  // "Strong Reference Cycles Between Class Instances"; fixed in "Weak References".
  final class Person {
    let name: String
    var apartment: Apartment?
    init(name: String) { self.name = name }
  }

  final class Apartment {
    let unit: String
    var tenant: Person?
    init(unit: String) { self.unit = unit }
  }

  final class FixedApartment {
    let unit: String
    weak var tenant: FixedPerson?
    init(unit: String) { self.unit = unit }
  }

  final class FixedPerson {
    let name: String
    var apartment: FixedApartment?
    init(name: String) { self.name = name }
  }

  // "Unowned References": the card's customer, written strong.
  final class Customer {
    let name: String
    var card: CreditCard?
    init(name: String) { self.name = name }
  }

  final class CreditCard {
    let number: UInt64
    var customer: Customer?
    init(number: UInt64, customer: Customer) {
      self.number = number
      self.customer = customer
    }
  }

  final class FixedCustomer {
    let name: String
    var card: FixedCreditCard?
    init(name: String) { self.name = name }
  }

  final class FixedCreditCard {
    let number: UInt64
    unowned let customer: FixedCustomer
    init(number: UInt64, customer: FixedCustomer) {
      self.number = number
      self.customer = customer
    }
  }

  // "Unowned Optional References": a course's department, written strong.
  final class Department {
    var name: String
    var courses: [Course] = []
    init(name: String) { self.name = name }
  }

  final class Course {
    var name: String
    var department: Department?
    var nextCourse: Course?
    init(name: String, in department: Department) {
      self.name = name
      self.department = department
    }
  }

  final class FixedDepartment {
    var name: String
    var courses: [FixedCourse] = []
    init(name: String) { self.name = name }
  }

  final class FixedCourse {
    var name: String
    unowned var department: FixedDepartment
    unowned var nextCourse: FixedCourse?
    init(name: String, in department: FixedDepartment) {
      self.name = name
      self.department = department
    }
  }

  // "Unowned References and Implicitly Unwrapped Optional Properties": the city's country, written
  // strong.
  final class Country {
    let name: String
    var capitalCity: City!
    init(name: String, capitalName: String) {
      self.name = name
      self.capitalCity = City(name: capitalName, country: self)
    }
  }

  final class City {
    let name: String
    let country: Country
    init(name: String, country: Country) {
      self.name = name
      self.country = country
    }
  }

  final class FixedCountry {
    let name: String
    var capitalCity: FixedCity!
    init(name: String, capitalName: String) {
      self.name = name
      self.capitalCity = FixedCity(name: capitalName, country: self)
    }
  }

  final class FixedCity {
    let name: String
    unowned let country: FixedCountry
    init(name: String, country: FixedCountry) {
      self.name = name
      self.country = country
    }
  }

  // "Strong Reference Cycles for Closures": `asHTML`, a lazy closure using `self`; fixed in
  // "Resolving Strong Reference Cycles for Closures" with `[unowned self]`.
  final class HTMLElement {
    let name: String
    let text: String?
    lazy var asHTML: () -> String = {
      if let text = self.text {
        return "<\(self.name)>\(text)</\(self.name)>"
      } else {
        return "<\(self.name) />"
      }
    }
    init(name: String, text: String? = nil) {
      self.name = name
      self.text = text
    }
  }

  final class FixedHTMLElement {
    let name: String
    let text: String?
    lazy var asHTML: () -> String = { [unowned self] in
      if let text = self.text {
        return "<\(self.name)>\(text)</\(self.name)>"
      } else {
        return "<\(self.name) />"
      }
    }
    init(name: String, text: String? = nil) {
      self.name = name
      self.text = text
    }
  }
}

@Suite(.everyObjectRuns) struct SwiftBookCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a person and an apartment holding each other")
  func personAndApartment() async throws {
    try await Corpus.expectLeak([
      .object(SwiftBook.Person.self, heldBy: "Apartment.tenant"),
      .also(SwiftBook.Apartment.self, heldBy: "Person.apartment"),
    ]) {
      let john = SwiftBook.Person(name: "John Appleseed")
      let unit4A = SwiftBook.Apartment(unit: "4A")
      john.apartment = unit4A
      unit4A.tenant = john
      return Leak(john, unit4A) { [weak john] in john?.apartment = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func personAndApartmentWithAWeakTenant() async {
    let john = SwiftBook.FixedPerson(name: "John Appleseed")
    let unit4A = SwiftBook.FixedApartment(unit: "4A")
    john.apartment = unit4A
    unit4A.tenant = john
  }

  @Test("Fails on purpose: a credit card holding its customer strongly")
  func customerAndCreditCard() async throws {
    try await Corpus.expectLeak([
      .object(SwiftBook.Customer.self, heldBy: "CreditCard.customer|Customer.card.customer"),
      .also(SwiftBook.CreditCard.self, heldBy: "Customer.card"),
    ]) {
      let john = SwiftBook.Customer(name: "John Appleseed")
      john.card = SwiftBook.CreditCard(number: 1234_5678_9012_3456, customer: john)
      return Leak(john) { [weak john] in john?.card = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func customerAndCreditCardWithAnUnownedCustomer() async {
    let john = SwiftBook.FixedCustomer(name: "John Appleseed")
    john.card = SwiftBook.FixedCreditCard(number: 1234_5678_9012_3456, customer: john)
  }

  @Test("Fails on purpose: a course holding its department strongly")
  func departmentAndCourses() async throws {
    try await Corpus.expectLeak([
      .object(SwiftBook.Department.self, heldBy: "Course.department|Department.courses[0].department"),
      .also(SwiftBook.Course.self, heldBy: "Department.courses"),
    ]) {
      let department = SwiftBook.Department(name: "Horticulture")
      let intro = SwiftBook.Course(name: "Survey of Plants", in: department)
      let intermediate = SwiftBook.Course(name: "Growing Common Herbs", in: department)
      let advanced = SwiftBook.Course(name: "Caring for Tropical Plants", in: department)
      intro.nextCourse = intermediate
      intermediate.nextCourse = advanced
      department.courses = [intro, intermediate, advanced]
      return Leak(department) { [weak department] in department?.courses = [] }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func departmentAndCoursesWithUnownedReferences() async {
    let department = SwiftBook.FixedDepartment(name: "Horticulture")
    let intro = SwiftBook.FixedCourse(name: "Survey of Plants", in: department)
    let intermediate = SwiftBook.FixedCourse(name: "Growing Common Herbs", in: department)
    let advanced = SwiftBook.FixedCourse(name: "Caring for Tropical Plants", in: department)
    intro.nextCourse = intermediate
    intermediate.nextCourse = advanced
    department.courses = [intro, intermediate, advanced]
  }

  @Test("Fails on purpose: a capital city holding its country strongly")
  func countryAndCapitalCity() async throws {
    try await Corpus.expectLeak([
      .object(SwiftBook.Country.self, heldBy: "City.country"),
      .also(SwiftBook.City.self, heldBy: "Country.capitalCity"),
    ]) {
      let country = SwiftBook.Country(name: "Canada", capitalName: "Ottawa")
      return Leak(country) { [weak country] in country?.capitalCity = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func countryAndCapitalCityWithAnUnownedCountry() async {
    _ = SwiftBook.FixedCountry(name: "Canada", capitalName: "Ottawa")
  }

  @Test("Fails on purpose: a lazy asHTML closure using self")
  func htmlElementAsHTML() async throws {
    try await Corpus.expectLeak([.object(SwiftBook.HTMLElement.self, heldBy: "asHTML (a closure that captures it")]) {
      let paragraph = SwiftBook.HTMLElement(name: "p", text: "hello, world")
      _ = paragraph.asHTML()
      return Leak(paragraph) { [weak paragraph] in paragraph?.asHTML = { "" } }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func htmlElementAsHTMLCapturingSelfUnowned() async {
    let paragraph = SwiftBook.FixedHTMLElement(name: "p", text: "hello, world")
    _ = paragraph.asHTML()
  }
}
