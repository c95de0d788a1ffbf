import PresentationModel

/// A registration still live when a check expected none, with its owner when the center knows it.
struct LeftoverObserver {
  let registration: RegistrationInfo
  let owner: AnyObject?
}
