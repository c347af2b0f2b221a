# The defaults of HeraldClient's number and switch properties, as GObject gives them to a client
# made without them (LibHeraldTests): one "NAME VALUE" line each, in the class's order.
#
#   /usr/bin/python3 libherald_defaults.py
import gi
gi.require_version("Herald", "1")
from gi.repository import Herald

client = Herald.Client(app_id="org.example.Defaults")
for spec in Herald.Client.list_properties():
    if spec.value_type.name in ("gdouble", "gint", "gboolean"):
        print(spec.name, client.get_property(spec.name))
