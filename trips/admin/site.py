"""The back office's name and home page: TripDesk's, with what waits for a decision on top."""

from django.contrib import admin

admin.site.site_header = "TripDesk back office"
admin.site.site_title = "TripDesk back office"
admin.site.index_title = "Home"
admin.site.index_template = "admin/trips/index.html"
# The left-hand model list repeats the home page and costs the lists their triage columns at 1280 px.
admin.site.enable_nav_sidebar = False
