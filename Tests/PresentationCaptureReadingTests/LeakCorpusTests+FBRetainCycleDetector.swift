import Foundation

/// Cases from FBRetainCycleDetector's test suite (github:facebook/FBRetainCycleDetector,
/// `FBRetainCycleDetectorTests/`), each named after the test it comes from. Its Objective-C objects
/// become `Holder`s, its `NSArray`/`NSDictionary`/`NSHashTable`/`NSMapTable` Swift collections, its
/// blocks Swift closures.
extension LeakCorpusTests {
  static let fbRetainCycleDetectorCases: [Case] = [
    // FBRetainCycleDetectorTests.mm, testThatDetectorWillFindCycleCreatedByOneObjectWithItself; twin:
    // testThatDetectorWillFindNoCycleIfOneIsUsingWeakProperty.
    Case(name: "an object holding itself", source: .fbRetainCycleDetector, expected: .path("Holder.object")) { leaks in
      let a = Holder()
      if leaks { a.object = a } else { a.weakObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatDetectorWillFindCycleBetweenThreeElements.
    Case(
      name: "a cycle of three objects", source: .fbRetainCycleDetector,
      expected: .path("Holder.object.object.object")
    ) { leaks in
      let (a, b, c) = (Holder(), Holder(), Holder())
      a.object = b
      b.object = c
      if leaks { c.object = a } else { c.weakObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a, b, c))
    },
    // testThatDetectorWillFindCycleIfArrayIsPartOfIt.
    Case(
      name: "a cycle through an array", source: .fbRetainCycleDetector,
      expected: .path("Holder.array[0].object")
    ) { leaks in
      let (a, b) = (Holder(), Holder())
      a.array = [b]
      if leaks { b.object = a } else { b.weakObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a, b))
    },
    // testThatDetectorWillFindCycleIfCandidateIsNotPartOfTheCycle.
    Case(
      name: "a cycle below a tracked object", source: .fbRetainCycleDetector,
      expected: .path("Holder.object.object")
    ) { leaks in
      let (root, a, b) = (Holder(), Holder(), Holder())
      root.object = a
      if leaks { a.object = b } else { a.weakObject = b }
      b.object = a
      return Built(target: b, roots: [root], release: Holder.clearing(root, a, b))
    },
    // testThatDetectorWillFindCycleIfDictionaryIsPartOfIt.
    Case(
      name: "a cycle through a dictionary", source: .fbRetainCycleDetector,
      expected: .path("Holder.dictionary[\"b\"].object")
    ) { leaks in
      let (a, b) = (Holder(), Holder())
      a.dictionary = ["b": b]
      if leaks { b.object = a } else { b.weakObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a, b))
    },
    // testThatDetectorWillFindCycleWithFewCollectionsMixedInIt.
    Case(
      name: "a cycle through nested collections in an Any", source: .fbRetainCycleDetector,
      expected: .path("Holder.any[0][\"a\"]")
    ) { leaks in
      let a = Holder()
      let inner: [String: AnyObject] = leaks ? ["a": a] : [:]
      a.any = [inner]
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatDetectorWillFindOnlyOneRetainCycleIfArrayRefersToSameObjectTwice.
    Case(
      name: "an array holding the same object twice", source: .fbRetainCycleDetector,
      expected: .path("Holder.array[0].object")
    ) { leaks in
      let (a, b) = (Holder(), Holder())
      a.array = [b, b]
      if leaks { b.object = a } else { b.weakObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a, b))
    },
    // testThatDetectorWillNotFindCycleInDiamondDAG (the twin); the leak closes the diamond.
    Case(
      name: "a diamond whose bottom holds the top", source: .fbRetainCycleDetector,
      expected: .path("Holder.array[0].object.object")
    ) { leaks in
      let (top, left, right, bottom) = (Holder(), Holder(), Holder(), Holder())
      top.array = [left, right]
      left.object = bottom
      right.object = bottom
      if leaks { bottom.object = top }
      return Built(target: top, roots: [top], release: Holder.clearing(top, left, right, bottom))
    },
    // testThatDetectorWillNotFindCycleInCommonDelegationPattern (the twin): a strong delegate leaks.
    Case(
      name: "a strong delegate back to the owner", source: .fbRetainCycleDetector,
      expected: .path("Holder.object.delegate")
    ) { leaks in
      let (owner, helper) = (Holder(), Holder())
      owner.object = helper
      if leaks { helper.delegate = owner } else { helper.weakDelegate = owner }
      return Built(target: owner, roots: [owner], release: Holder.clearing(owner, helper))
    },
    // testThatUnsafeUnretainedDoesNotFormCycle (the twin): `unowned(unsafe)` against strong.
    Case(
      name: "a strong reference where unowned(unsafe) was meant", source: .fbRetainCycleDetector,
      expected: .path("Holder.object.object")
    ) { leaks in
      let (a, b) = (Holder(), Holder())
      a.object = b
      if leaks { b.object = a } else { b.unretainedObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a, b))
    },
    // testThatDetectorWillFindCycleBetweenBlockAndObject; twin:
    // testThatDetectorWillNotFindCycleInBlockIfItHoldsWeakReferenceToObject.
    Case(
      name: "a block property capturing its owner", source: .fbRetainCycleDetector,
      expected: .path("Holder.block (a closure that captures it)")
    ) { leaks in
      let a = Holder()
      if leaks { a.block = { _ = a } } else { a.block = { [weak a] in _ = a } }
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatDetectorWillFindCycleBetweenBlockAndObjectHeldByArray.
    Case(
      name: "a block in an array capturing the array's owner", source: .fbRetainCycleDetector,
      expected: .path("Holder.blocks[1] (a closure that captures it)")
    ) { leaks in
      let a = Holder()
      a.blocks = [{}, leaks ? { _ = a } : { [weak a] in _ = a }]
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatDetectorWillFindCycleIfMultipleBlocksArePartOfIt.
    Case(
      name: "two blocks in a cycle", source: .fbRetainCycleDetector,
      expected: .path("Holder.block (a closure that captures it through Holder.block)")
    ) { leaks in
      let (a, b) = (Holder(), Holder())
      a.block = { b.block?() }
      if leaks { b.block = { _ = a } } else { b.block = { [unowned a] in _ = a } }
      return Built(target: a, roots: [a], release: Holder.clearing(a, b))
    },
    // testThatDetectorWillFindCycleIfParentClassPropertyIsAReasonForCycle.
    Case(
      name: "a cycle through a superclass's property", source: .fbRetainCycleDetector,
      expected: .path("SubHolder.object")
    ) { leaks in
      let a = SubHolder()
      if leaks { a.object = a } else { a.weakObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatDetectorWillFindCycleBetweenObjectAndItsSubclass.
    Case(
      name: "a cycle between an object and an instance of its subclass", source: .fbRetainCycleDetector,
      expected: .path("Holder.object.own")
    ) { leaks in
      let (a, b) = (Holder(), SubHolder())
      a.object = b
      b.own = leaks ? a : nil
      return Built(target: a, roots: [a]) {
        a.clear()
        b.own = nil
      }
    },
    // testThatDetectorWillFindCycleIfPartOfItIsElementOfStruct; twin:
    // testThatDetectorWillNotFindCycleIfItGoesThroughStructsWeakReference.
    Case(
      name: "a cycle through a struct's field", source: .fbRetainCycleDetector,
      expected: .path("Holder.pair.object")
    ) { leaks in
      let a = Holder()
      if leaks { a.pair = StrongPair(object: a) } else { a.weakPair = WeakPair(object: a) }
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testRetainCycleInStandardViewControllerDelegation.
    Case(
      name: "a table view's strong delegate", source: .fbRetainCycleDetector,
      expected: .path("ViewController.tableView.delegate")
    ) { leaks in
      let controller = ViewController()
      if leaks {
        controller.tableView.delegate = controller
      } else {
        controller.tableView.weakDelegate = controller
      }
      return Built(target: controller, roots: [controller]) { controller.tableView.delegate = nil }
    },
    // testThatNestedBlocksCycleIsDetected.
    Case(
      name: "a block capturing a block that captures the owner", source: .fbRetainCycleDetector,
      expected: .path("Holder.block (a closure that captures it)")
    ) { leaks in
      let a = Holder()
      let inner: () -> Void = leaks ? { _ = a } : { [weak a] in _ = a }
      a.block = { inner() }
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatArrayContainingOwnerCycleIsDetected.
    Case(
      name: "an array containing its owner", source: .fbRetainCycleDetector,
      expected: .path("Holder.array[1]")
    ) { leaks in
      let a = Holder()
      a.array = leaks ? [Holder(), a] : [Holder()]
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatDictionaryValueCycleIsDetected.
    Case(
      name: "a dictionary value that is its owner", source: .fbRetainCycleDetector,
      expected: .path("Holder.dictionary[\"self\"]")
    ) { leaks in
      let a = Holder()
      a.dictionary = leaks ? ["self": a] : ["other": Holder()]
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatNSHashTableStrongCycleIsDetected: a set of objects by identity.
    Case(
      name: "a strong set holding its owner", source: .fbRetainCycleDetector,
      expected: .path("Holder.set[0].object")
    ) { leaks in
      let a = Holder()
      a.set = leaks ? [IdentityBox(object: a)] : [IdentityBox(object: Holder())]
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testThatNSMapTableStrongCycleIsDetected: a table keyed by identity.
    Case(
      name: "a strong map table holding its owner", source: .fbRetainCycleDetector,
      expected: .path("Holder.table[some ObjectIdentifier]")
    ) { leaks in
      let a = Holder()
      let other = Holder()
      a.table = leaks ? [ObjectIdentifier(a): a] : [ObjectIdentifier(other): other]
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // FBRetainCycleSwiftDetectorTests.swift, testABITraversal_closureCapturingAnotherObjectStrongly.
    Case(
      name: "a closure property capturing another object", source: .fbRetainCycleDetector,
      expected: .path("Holder.block (a closure that captures it)")
    ) { leaks in
      let (a, b) = (Holder(), Holder())
      if leaks { a.block = { _ = b } } else { a.block = { [weak b] in _ = b } }
      return Built(target: b, roots: [a], release: Holder.clearing(a))
    },
    // testABITraversal_closureCycleViaIntermediateObject.
    Case(
      name: "a closure reaching its owner through another object", source: .fbRetainCycleDetector,
      expected: .path("Holder.block (a closure that captures it through Holder.object)")
    ) { leaks in
      let (a, middle) = (Holder(), Holder())
      a.block = { _ = middle }
      if leaks { middle.object = a } else { middle.weakObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a, middle))
    },
    // testABITraversal_closureWithMixedStrongAndWeakCaptures_cycle (twin: ..._noCycle).
    Case(
      name: "a closure with a weak capture and a strong one", source: .fbRetainCycleDetector,
      expected: .path("Holder.block (a closure that captures it)")
    ) { leaks in
      let (a, other) = (Holder(), Holder())
      if leaks {
        a.block = { [weak other] in _ = (other, a) }
      } else {
        a.block = { [weak other, weak a] in _ = (other, a) }
      }
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testABITraversal_threeWayCycleThroughClosure.
    Case(
      name: "a three-way cycle through a closure", source: .fbRetainCycleDetector,
      expected: .path("Holder.object.object.block (a closure that captures it)")
    ) { leaks in
      let (a, b, c) = (Holder(), Holder(), Holder())
      a.object = b
      b.object = c
      if leaks { c.block = { _ = a } } else { c.block = { [unowned a] in _ = a } }
      return Built(target: a, roots: [a], release: Holder.clearing(a, b, c))
    },
    // testABITraversal_protocolTypedProperty_cycle.
    Case(
      name: "a cycle through a protocol-typed property", source: .fbRetainCycleDetector,
      expected: .path("Holder.plain.object")
    ) { leaks in
      let (a, b) = (Holder(), Holder())
      a.plain = b
      if leaks { b.object = a } else { b.weakObject = a }
      return Built(target: a, roots: [a], release: Holder.clearing(a, b))
    },
    // testABITraversal_deepInheritanceChain_cycle and ..._pureSwiftGrandchild_cycleViaBaseField.
    Case(
      name: "a cycle through the base class field of a grandchild", source: .fbRetainCycleDetector,
      expected: .path("Leaf.base")
    ) { leaks in
      let leaf = Leaf()
      leaf.middle = Holder()
      leaf.leaf = Holder()
      if leaks { leaf.base = leaf }
      return Built(target: leaf, roots: [leaf]) { leaf.clear() }
    },
    // testABITraversal_pureSwiftChild_cycleViaChildField.
    Case(
      name: "a cycle through a grandchild's own field", source: .fbRetainCycleDetector,
      expected: .path("Leaf.leaf.object")
    ) { leaks in
      let leaf = Leaf()
      let holder = Holder()
      leaf.leaf = holder
      if leaks { holder.object = leaf } else { holder.weakObject = leaf }
      return Built(target: leaf, roots: [leaf]) {
        leaf.clear()
        holder.clear()
      }
    },
    // testABITraversal_nestedStruct_cycle.
    Case(
      name: "a cycle through a struct in a struct", source: .fbRetainCycleDetector,
      expected: .path("Holder.nested.inner.object")
    ) { leaks in
      let a = Holder()
      a.nested = NestedPair(inner: StrongPair(object: leaks ? a : Holder(), count: 2))
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // testABITraversal_lazyVar_cycle: a lazy closure property capturing `self`.
    Case(
      name: "a lazy closure property capturing self", source: .fbRetainCycleDetector,
      expected: .path("HTMLElement.$__lazy_storage_$_asHTML (a closure that captures it)")
    ) { leaks in
      let element = HTMLElement(leaks: leaks)
      _ = element.asHTML
      return Built(target: element, roots: [element]) { element.asHTML = { "" } }
    },
    // FBObjectiveCNSCFTimerTests.m (a timer retains its target and user info) and
    // testThatTimerUserInfoCycleIsDetected: a Foundation timer whose block captures its owner.
    Case(
      name: "a timer's block capturing the timer's owner", source: .fbRetainCycleDetector,
      expected: .path("Observed.timer._fire (a closure that captures it)")
    ) { leaks in
      let owner = Observed()
      owner.timer =
        leaks
        ? Timer(timeInterval: 60, repeats: true) { _ in _ = owner }
        : Timer(timeInterval: 60, repeats: true) { [weak owner] _ in _ = owner }
      return Built(target: owner, roots: [owner]) {
        owner.timer?.invalidate()
        owner.timer = nil
      }
    },
  ]
}
