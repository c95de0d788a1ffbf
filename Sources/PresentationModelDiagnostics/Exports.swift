// Diagnostics sit next to the library they watch: importing them also imports it.
@_exported public import PresentationModel
