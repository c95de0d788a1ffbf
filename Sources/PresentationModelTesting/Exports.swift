// Tests that import the harness also see the library it checks.
@_exported public import PresentationModel
