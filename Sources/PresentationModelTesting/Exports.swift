// Tests that import the harness also see the library it checks and the diagnostics it builds on.
@_exported public import PresentationModel
@_exported public import PresentationModelDiagnostics
